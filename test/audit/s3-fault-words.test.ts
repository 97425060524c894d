import { describe, expect, it } from 'vitest';
import { openArchiveStore } from '../../src/audit/store/open-store.js';
import { s3Fault } from '../../src/audit/store/s3-faults.js';
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
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in chain'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'issuer certificate not found'],
  ])('%s: not trusted, add your CA', (code, words) => {
    expect(s3Fault(nodeError(code), where, direct).message).toBe(
      `${where}: certificate of s3.acme.example:8443 not trusted (${words}): add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS`,
    );
  });
  it.each([
    ['CERT_HAS_EXPIRED', 'has expired'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'is for another host name'],
  ])('%s: the certificate is wrong, a CA does not help', (code, words) => {
    expect(s3Fault(nodeError(code), where, direct).message).toBe(
      `${where}: certificate of s3.acme.example:8443 ${words} (${code}): the store's certificate must be replaced, a CA does not help`,
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
        /^s3:\/\/plain\/audit: 127\.0\.0\.1:\d+ does not answer https \((EPROTO|ERR_SSL_WRONG_VERSION_NUMBER): wrong version number\): use an http:\/\/ endpoint \(--s3-endpoint\) if the store has no TLS$/,
      );
    } finally {
      await s3.close();
    }
  });
});

describe('through a proxy, a connection failure is the proxy: named by scheme, host and port, never its credentials', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH'])('%s: cannot reach the proxy', (code) => {
    const line = s3Fault(nodeError(code), where, proxied).message;
    expect(line).toBe(
      `${where}: cannot reach the proxy http://proxy.acme.example:3128 (${code}): check the proxy setting (--proxy, HTTPS_PROXY, HTTP_PROXY) or list s3.acme.example:8443 in NO_PROXY`,
    );
  });
  it('the CONNECT refused: 407 is the credentials, another status the proxy not connecting', () => {
    expect(s3Fault(new Error('Bad response: 407'), where, proxied).message).toBe(
      `${where}: the proxy http://proxy.acme.example:3128 refused the credentials (HTTP 407 Proxy Authentication Required): check the user and password of the proxy URL`,
    );
    expect(s3Fault(new Error('Bad response: 403'), where, proxied).message).toBe(
      `${where}: the proxy http://proxy.acme.example:3128 did not connect to s3.acme.example:8443 (HTTP 403)`,
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
