import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { TransportError } from '../../src/core/errors/error-classes.js';
import { tlsFailureLine } from '../../src/core/transport/network-errors.js';
import { createNodeHttpTransport } from '../../src/node/transport/node-http.js';
import { DEMO } from '../../src/server/fixtures.js';
import { failure } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';

const server = useReferenceServer();

async function validate(baseUrl: string, options: ConstructorParameters<typeof SvcClient>[0] = {}) {
  const client = new SvcClient({ baseUrl, apiKey: DEMO.projectKey, maxRetries: 0, ...options });
  try {
    return await client.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
  } finally {
    await client.close();
  }
}

let front: TlsFront;
let otherHost: TlsFront;
beforeAll(async () => {
  front = await startTlsFront(server().url);
  // The same certificate on an address it does not name (127.0.0.2 routes to loopback on Linux).
  otherHost = await startTlsFront(server().url, '127.0.0.2');
});
afterAll(async () => {
  await Promise.all([front?.close(), otherHost?.close()]);
});

describe('the ca option adds to Node’s roots', () => {
  it('a certificate of the test CA is refused without it, in words with the fix', async () => {
    const error = await failure(validate(front.url));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(
      `certificate of localhost:${front.port} not trusted (unable to verify the first certificate): add your CA with the ca option or NODE_EXTRA_CA_CERTS`,
    );
  });
  it('accepted with the CA (as text or a list)', async () => {
    await expect(validate(front.url, { ca: TEST_TLS.ca })).resolves.toBeDefined();
    await expect(validate(front.url, { ca: [TEST_TLS.otherCa, TEST_TLS.ca] })).resolves.toBeDefined();
  });
  it('not accepted with an unrelated CA', async () => {
    const error = await failure(validate(front.url, { ca: TEST_TLS.otherCa }));
    expect(error.message).toMatch(/^certificate of localhost:\d+ not trusted/);
  });
  it('the node:http bulk transport takes the same ca', async () => {
    const transport = createNodeHttpTransport({ ca: TEST_TLS.ca });
    try {
      const res = await transport.request({
        method: 'GET',
        url: `${front.url}/platform/v1/events?pageSize=1`,
        headers: { authorization: `Bearer ${DEMO.agencyKey}` },
        signal: new AbortController().signal,
      });
      expect(res.status).toBe(200);
    } finally {
      await transport.close?.();
    }
  });
});

describe('TLS failures are named in words', () => {
  it('a certificate for another host name', async () => {
    const error = await failure(validate(`https://127.0.0.2:${otherHost.port}`, { ca: TEST_TLS.ca }));
    expect(error.message).toMatch(
      new RegExp(
        `^certificate of 127\\.0\\.0\\.2:${otherHost.port} is for another host name; it names .*DNS:localhost`,
      ),
    );
  });
  it('https:// to a server that speaks plain HTTP', async () => {
    const url = server().url.replace('http:', 'https:');
    const error = await failure(validate(url));
    expect(error.message).toBe(`the server at ${new URL(url).host} speaks plain HTTP: use http://`);
  });
  it('http:// to a server that speaks TLS (found by a handshake after the server closed)', async () => {
    const error = await failure(validate(`http://127.0.0.1:${front.port}`));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(`the server at 127.0.0.1:${front.port} speaks TLS: use https://`);
  });
  it('a plain HTTP server that closes without an answer stays a connection failure', async () => {
    const closing = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const { port } = closing.address() as { port: number };
    try {
      const error = await failure(validate(`http://127.0.0.1:${port}`));
      expect(error.message).toMatch(/^Connection to 127\.0\.0\.1:\d+ failed: UND_ERR_SOCKET/);
    } finally {
      closing.close();
    }
  });
  it('expired and not yet valid certificates (by their OpenSSL codes)', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(tlsFailureLine(coded('CERT_HAS_EXPIRED'), 'h:1')).toBe(
      "certificate of h:1 has expired: the server must renew it (or this machine's clock is wrong)",
    );
    expect(tlsFailureLine(coded('CERT_NOT_YET_VALID'), 'h:1')).toContain("check this machine's clock");
    expect(tlsFailureLine(coded('SELF_SIGNED_CERT_IN_CHAIN'), 'h:1')).toBe(
      'certificate of h:1 not trusted (self-signed certificate in certificate chain): add your CA with the ca option or NODE_EXTRA_CA_CERTS',
    );
    expect(tlsFailureLine(coded('ECONNREFUSED'), 'h:1')).toBeUndefined();
  });
});
