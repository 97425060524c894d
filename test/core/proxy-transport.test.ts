import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { clientNetwork } from '../../src/client-network.js';
import { ConnectionError, SvcError, TransportError } from '../../src/core/errors/error-classes.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { createWebhookForwarder } from '../../src/node/webhooks/forwarder.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ROOT } from '../helpers/build.js';
import { failure } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTinyproxy, type Tinyproxy, tinyproxyMissing } from '../helpers/tinyproxy.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';

const server = useReferenceServer();
const PASSWORD = 'pr0xy-s3cret';

/** A validation through a client, closed after. */
async function validate(options: ConstructorParameters<typeof SvcClient>[0]): Promise<unknown> {
  const client = new SvcClient({ apiKey: DEMO.projectKey, maxRetries: 0, ...options });
  try {
    return await client.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
  } finally {
    await client.close();
  }
}

const hostOf = (url: string) => new URL(url).host;

describe.skipIf(tinyproxyMissing)('a client with the proxy option sends every request through it', () => {
  let proxy: Tinyproxy;
  let authProxy: Tinyproxy;
  let front: TlsFront;
  beforeAll(async () => {
    [proxy, authProxy] = await Promise.all([
      startTinyproxy(),
      startTinyproxy({ auth: { user: 'svc', pass: PASSWORD } }),
    ]);
    front = await startTlsFront(server().url);
  });
  afterAll(async () => {
    await Promise.all([proxy?.stop(), authProxy?.stop(), front?.close()]);
  });

  it('an http base URL: the proxy logs the request (an absolute-URL request, not a tunnel)', async () => {
    await validate({ baseUrl: server().url, proxy: proxy.url });
    expect(proxy.requests()).toContain(`POST ${server().url}/taxvalidation/v1/validations HTTP/1.1`);
  });

  it('an audit export page (the bulk path, node:http without a proxy) goes through the proxy too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proxy-export-'));
    const client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.agencyKey, proxy: proxy.url });
    try {
      await exportAuditEvents(client.audit, {
        from: '2020-01-01T00:00:00Z',
        output: join(dir, 'events.ndjson'),
      });
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(proxy.requests().some((r) => r.startsWith(`GET ${server().url}/platform/v1/events`))).toBe(true);
  });

  it('an https base URL goes through a CONNECT tunnel and trusts the ca option', async () => {
    await validate({ baseUrl: front.url, proxy: proxy.url, ca: TEST_TLS.ca });
    expect(proxy.requests()).toContain(`CONNECT ${hostOf(front.url)} HTTP/1.1`);
  });

  it('without the CA, the tunnelled certificate is refused in words', async () => {
    const error = await failure(validate({ baseUrl: front.url, proxy: proxy.url }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(
      `certificate of ${hostOf(front.url)} not trusted (unable to verify the first certificate): add your CA with the ca option or NODE_EXTRA_CA_CERTS`,
    );
  });

  it('Basic credentials in the proxy URL are sent, and never shown', async () => {
    await validate({ baseUrl: server().url, proxy: authProxy.url });
    expect(authProxy.requests()).toContain(`POST ${server().url}/taxvalidation/v1/validations HTTP/1.1`);
  });

  it('a wrong password is named as the proxy refusing it, not the service, without the password', async () => {
    const wrong = authProxy.url.replace(PASSWORD, 'wrong-password');
    for (const baseUrl of [server().url, front.url]) {
      const error = await failure(validate({ baseUrl, proxy: wrong, ca: TEST_TLS.ca }));
      expect(error).toBeInstanceOf(TransportError);
      expect(error.message).toContain(
        `proxy 127.0.0.1:${authProxy.port} did not pass the request to ${hostOf(baseUrl)} on`,
      );
      expect(error.message).toContain('refused its user name and password');
      expect(error.message).not.toContain('wrong-password');
    }
    const none = await failure(validate({ baseUrl: server().url, proxy: authProxy.plainUrl }));
    expect(none.message).toContain('asks for a user name and password (407 Proxy Authentication Required)');
  });

  it('webhook forwarding goes through the proxy, and a stopped proxy is named', async () => {
    const app = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(app.address() as { port: number }).port}/hooks`;
    const forwarder = createWebhookForwarder(target, { proxy: authProxy.url });
    try {
      await expect(
        forwarder.forward({ bytes: new TextEncoder().encode('{}'), contentType: 'application/json' }),
      ).resolves.toBe(204);
      expect(authProxy.requests()).toContain(`POST ${target} HTTP/1.1`);
      const gone = createWebhookForwarder(target, { proxy: 'http://127.0.0.1:1' });
      const error = await failure(gone.forward({ bytes: new Uint8Array(), contentType: undefined }));
      expect(error.message).toMatch(/^Connection to proxy 127\.0\.0\.1:1 failed: ECONNREFUSED/);
      await gone.close();
    } finally {
      await forwarder.close();
      app.close();
    }
  });

  it('NO_PROXY rules send a listed host direct', async () => {
    const before = proxy.requests().length;
    await validate({ baseUrl: server().url, proxy: { httpProxy: proxy.url, noProxy: '127.0.0.1' } });
    expect(proxy.requests().length).toBe(before);
  });

  it('fromEnv and the env option read the proxy variables (lower case first)', async () => {
    const before = proxy.requests().length;
    const client = new SvcClient({
      env: {
        SVC_BASE_URL: server().url,
        SVC_API_KEY: DEMO.projectKey,
        http_proxy: proxy.url,
        HTTP_PROXY: 'http://127.0.0.1:1',
      },
    });
    try {
      await client.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
    } finally {
      await client.close();
    }
    expect(proxy.requests().length).toBe(before + 1);
  });

  it("NODE_USE_ENV_PROXY=1: a client without proxy uses the process's variables (child process)", async () => {
    const script = `
      import { SvcClient } from ${JSON.stringify(join(ROOT, 'dist', 'index.js'))};
      const client = new SvcClient({ baseUrl: process.argv[1], apiKey: ${JSON.stringify(DEMO.projectKey)}, maxRetries: 0 });
      await client.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
      await client.close();`;
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, server().url], {
        env: { PATH: process.env.PATH ?? '', HTTP_PROXY: proxy.url, ...env },
      });
    const before = proxy.requests().length;
    await run({});
    expect(proxy.requests().length).toBe(before);
    await run({ NODE_USE_ENV_PROXY: '1' });
    expect(proxy.requests().length).toBe(before + 1);
  });
});

describe.skipIf(tinyproxyMissing)(
  'a proxy that cannot be reached is named, and nothing goes around it',
  () => {
    it('the error names the proxy (host and port, no password) as the failure, not the base URL', async () => {
      const stopped = await startTinyproxy();
      await stopped.stop();
      const url = stopped.plainUrl.replace('//', `//svc:${PASSWORD}@`);
      const error = await failure(validate({ baseUrl: server().url, proxy: url }));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error.message).toBe(
        `Connection to proxy 127.0.0.1:${stopped.port} failed: ECONNREFUSED (the proxy of ${hostOf(server().url)})`,
      );
    });
  },
);

describe('a proxy or CA the transport cannot honour is a config error, never a silent direct request', () => {
  it('with a custom fetch or transport', () => {
    const fetch = globalThis.fetch;
    expect(() => new SvcClient({ baseUrl: 'http://x.test', proxy: 'http://p:1', fetch })).toThrow(
      /the proxy option apply to the default transport only/,
    );
    expect(() => new SvcClient({ baseUrl: 'http://x.test', ca: TEST_TLS.ca, fetch })).toThrow(SvcError);
  });
  it('on a runtime whose fetch takes no proxy (Bun, Deno, workerd)', () => {
    const error = (() => {
      try {
        clientNetwork({ proxy: 'http://p:1' }, { proxy: 'http://p:1' }, 'deno');
      } catch (e) {
        return e as SvcError;
      }
    })();
    expect(error?.code).toBe('config');
    expect(error?.message).toContain('on this runtime (deno)');
  });
  it('proxies only the environment names are left to such a runtime', () => {
    expect(clientNetwork({}, { proxy: { httpsProxy: 'http://p:1' } }, 'bun')).toEqual({
      proxy: undefined,
      ca: undefined,
    });
  });
  it('a ca text without a certificate, and a proxy URL that is not http(s)', () => {
    expect(() => new SvcClient({ baseUrl: 'http://x.test', ca: '/etc/ssl/ca.pem' })).toThrow(
      /holds no PEM certificate/,
    );
    expect(() => new SvcClient({ baseUrl: 'http://x.test', proxy: 'socks5://u:secret@p:1' })).toThrow(
      /must be an http:\/\/ or https:\/\/ proxy URL, not socks5:\/\/ \(socks5:\/\/\*\*\*@p:1\)/,
    );
  });
});
