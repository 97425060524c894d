import { describe, expect, it } from 'vitest';
import { openArchiveStore } from '../../src/node/audit-store/open-store.js';
import { s3Fault } from '../../src/node/audit-store/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

// #41 item 2: a failed S3 request on the network path (TLS, proxy, DNS) is one line with the
// real cause and its fix, naming the user's archive and the proxy without its credentials.

const where = 's3://acme/prod';
const nodeError = (code: string, message = code) => Object.assign(new Error(message), { code });
const direct = { host: 's3.acme.example:8443', proxy: undefined };
const proxied = {
  host: 's3.acme.example:8443',
  proxy: new URL('http://alice:s3cret@proxy.acme.example:3128'),
};

describe('TLS failures are named with their fix: a CA for an untrusted issuer, none for an expired or misnamed certificate', () => {
  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'issuer certificate not found'],
  ])('%s: not trusted, add your CA', (code, words) => {
    expect(s3Fault(nodeError(code), where, direct).message).toBe(
      `${where}: certificate of s3.acme.example:8443 not trusted (${words}): add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS`,
    );
  });
  it.each([
    ['CERT_HAS_EXPIRED', "has expired: the store must renew it (or this machine's clock is wrong)"],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'is for another host name: use an endpoint (--s3-endpoint) with a name it holds',
    ],
  ])('%s: the certificate is wrong, a CA does not help', (code, words) => {
    expect(s3Fault(nodeError(code), where, direct).message).toBe(
      `${where}: certificate of s3.acme.example:8443 ${words}`,
    );
  });
  it('https to a plain http port, as Node reports it', async () => {
    const s3: S3TestServer = await startS3Server();
    try {
      await s3.createBucket('plain');
      const store = await openArchiveStore('s3://plain/audit', {
        s3: {
          endpoint: s3.endpoint.replace('http:', 'https:'),
          region: s3.region,
          credentials: s3.credentials,
          maxAttempts: 1,
        },
      });
      const error = (await store.list().catch((e: unknown) => e)) as Error;
      expect(error.message).toMatch(
        /^s3:\/\/plain\/audit: the server at 127\.0\.0\.1:\d+ speaks plain HTTP: use an http:\/\/ endpoint \(--s3-endpoint\)$/,
      );
    } finally {
      await s3.close();
    }
  });
});

describe("through a proxy, a connection failure is the proxy's, in the transports' words: named by host and port, never its credentials", () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH'])('%s: cannot reach the proxy', (code) => {
    const line = s3Fault(nodeError(code), where, proxied).message;
    expect(line).toBe(
      `${where}: Connection to proxy proxy.acme.example:3128 failed: ${code} (the proxy of s3.acme.example:8443)`,
    );
  });
  it("the CONNECT refused (hpagent's `Bad response: STATUS`): 407 is the credentials, 403 the proxy's rule", () => {
    expect(s3Fault(new Error('Bad response: 407'), where, proxied).message).toBe(
      `${where}: proxy proxy.acme.example:3128 did not pass the request to s3.acme.example:8443 on: the proxy refused its user name and password (407 Proxy Authentication Required): check them in the proxy URL`,
    );
    expect(s3Fault(new Error('Bad response: 403'), where, proxied).message).toBe(
      `${where}: proxy proxy.acme.example:3128 did not pass the request to s3.acme.example:8443 on: the proxy does not allow this host or port (403)`,
    );
  });
  it('no line holds the password', () => {
    for (const error of [
      nodeError('ECONNREFUSED'),
      new Error('Bad response: 407'),
      new Error('Proxy timeout'),
    ])
      expect(s3Fault(error, where, proxied).message).not.toContain('s3cret');
  });
});

describe('without a proxy, a name that does not resolve is DNS', () => {
  it.each(['ENOTFOUND', 'EAI_AGAIN'])('%s', (code) => {
    expect(s3Fault(nodeError(code), where, direct).message).toBe(
      `${where}: cannot resolve the store's host s3.acme.example (${code}): check the endpoint (--s3-endpoint) and DNS; behind a proxy, set HTTPS_PROXY`,
    );
  });
  it('a refused connection keeps its line', () => {
    expect(s3Fault(nodeError('ECONNREFUSED'), where, direct).message).toBe(
      `${where}: cannot reach the store (ECONNREFUSED): check the endpoint (--s3-endpoint) and the network`,
    );
  });
});
