import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTinyproxy, type Tinyproxy, tinyproxyMissing } from '../helpers/tinyproxy.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';
import { bucketMachine, HOUR, seedHourBefore } from './helpers.js';

// #41 items 1 and 2 for bucket archives: `svc audit sync --dir s3://...` through a real proxy
// (Debian's tinyproxy, started here on loopback, with and without Basic auth) and against an S3
// endpoint whose certificate comes from a CA Node does not trust (test/fixtures/tls).

const haveProxy = tinyproxyMissing === undefined;

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const PASSWORD = 'pr0xy-s3cret';
let s3: S3TestServer;
let front: TlsFront;
let root: string;
let bucketN = 0;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  front = await startTlsFront(s3.endpoint);
  root = mkdtempSync(join(tmpdir(), 'svc-s3-net-'));
}, 180_000);
afterAll(async () => {
  await front?.close();
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

const seed = () => seedHourBefore(server(), T0);

/** A fresh bucket's archive URL. */
async function bucket(): Promise<string> {
  const name = `net-${++bucketN}`;
  await s3.createBucket(name);
  return `s3://${name}/audit`;
}

/** The reference server's `host:port`: NO_PROXY sends its requests direct, so only S3's go through the proxy. */
const apiHost = () => new URL(server().url).host;

/** `svc [global...] audit sync --dir URL` on a fresh machine with `env` on top of the bucket's settings. */
function sync(url: string, env: Record<string, string>, global: string[] = []) {
  return runBin(
    [...global, 'audit', 'sync', '--dir', url, '--since', new Date(T0 - 3 * HOUR).toISOString()],
    { env: bucketMachine(root, s3.env, server().url, { NO_PROXY: apiHost(), ...env }) },
  );
}

/** The CONNECT requests to `host:port` in the proxy's log. */
const connectsTo = (proxy: Tinyproxy, port: number | string, host = '127.0.0.1') =>
  proxy.requests().filter((line) => line === `CONNECT ${host}:${port} HTTP/1.1`);

const TEST_CA = TEST_TLS.caFile;
const OTHER_CA = TEST_TLS.otherCaFile;
const auth = { user: 'user', pass: PASSWORD };

const s3Port = () => new URL(s3.endpoint).port;

describe.skipIf(!haveProxy)(
  'the S3 archive goes through the proxy of HTTP(S)_PROXY and --proxy, NO_PROXY honoured',
  () => {
    it('HTTP_PROXY: the sync passes and the proxy log shows its connection to the S3 endpoint', async () => {
      seed();
      const proxy = await startTinyproxy();
      try {
        const run = await sync(await bucket(), { HTTP_PROXY: proxy.plainUrl });
        expect(run.code, run.stderr).toBe(0);
        expect(connectsTo(proxy, s3Port()).length).toBeGreaterThan(0);
      } finally {
        await proxy.stop();
      }
    }, 60_000);

    it('--proxy and lowercase http_proxy do the same; NO_PROXY naming the endpoint goes direct', async () => {
      seed();
      const proxy = await startTinyproxy();
      try {
        const flag = await sync(await bucket(), {}, ['--proxy', proxy.plainUrl]);
        expect(flag.code, flag.stderr).toBe(0);
        const viaFlag = connectsTo(proxy, s3Port()).length;
        expect(viaFlag).toBeGreaterThan(0);
        const lower = await sync(await bucket(), { http_proxy: proxy.plainUrl });
        expect(lower.code, lower.stderr).toBe(0);
        const viaLower = connectsTo(proxy, s3Port()).length;
        expect(viaLower).toBeGreaterThan(viaFlag);
        const direct = await sync(await bucket(), {
          HTTP_PROXY: proxy.plainUrl,
          NO_PROXY: `${apiHost()},127.0.0.1:${s3Port()}`,
        });
        expect(direct.code, direct.stderr).toBe(0);
        expect(connectsTo(proxy, s3Port()).length).toBe(viaLower);
      } finally {
        await proxy.stop();
      }
    }, 90_000);

    it("the library: client.audit.sync to a bucket takes the client's proxy and CA unless s3 names its own", async () => {
      seed();
      const proxy = await startTinyproxy();
      const client = new SvcClient({
        baseUrl: server().url,
        apiKey: 'ak_demo_project',
        proxy: { httpProxy: proxy.plainUrl, httpsProxy: proxy.plainUrl, noProxy: apiHost() },
      });
      const workDir = mkdtempSync(join(root, 'lib-work-'));
      const s3Settings = s3.storeSettings();
      const since = new Date(T0 - 3 * HOUR).toISOString();
      try {
        const viaClient = await syncAuditArchive(client.audit, {
          dir: await bucket(),
          since,
          lagMs: 0,
          workDir,
          s3: s3Settings,
        });
        expect(viaClient.events).toBe(20);
        const through = connectsTo(proxy, s3Port()).length;
        expect(through).toBeGreaterThan(0);
        // `s3.proxy: false` is the bucket's own choice: direct, the proxy sees nothing more.
        const own = await syncAuditArchive(client.audit, {
          dir: await bucket(),
          since,
          lagMs: 0,
          workDir,
          s3: { ...s3Settings, proxy: false },
        });
        expect(own.events).toBe(20);
        expect(connectsTo(proxy, s3Port()).length).toBe(through);
      } finally {
        await client.close();
        await proxy.stop();
      }
    }, 60_000);

    it('with the proxy stopped the run fails naming the proxy (nothing goes around it)', async () => {
      seed();
      const proxy = await startTinyproxy();
      await proxy.stop();
      const url = await bucket();
      const run = await sync(url, { HTTP_PROXY: `http://user:${PASSWORD}@127.0.0.1:${proxy.port}` });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `svc: ${url}: Connection to proxy 127.0.0.1:${proxy.port} failed: ECONNREFUSED (the proxy of 127.0.0.1:${s3Port()})`,
      ]);
      expect(run.stderr).not.toContain(PASSWORD);
    }, 90_000);
  },
);

describe.skipIf(!haveProxy)(
  'a proxy with Basic auth: user:pass@ works, and the password appears nowhere',
  () => {
    it('the right password passes; --debug output holds neither it nor its Base64', async () => {
      seed();
      const proxy = await startTinyproxy({ auth });
      try {
        const withAuth = `http://user:${PASSWORD}@127.0.0.1:${proxy.port}`;
        const run = await sync(await bucket(), { HTTP_PROXY: withAuth }, ['--debug']);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toContain('s3 > PUT');
        expect(connectsTo(proxy, s3Port()).length).toBeGreaterThan(0);
        const basic = Buffer.from(`user:${PASSWORD}`).toString('base64');
        for (const secret of [PASSWORD, basic]) expect(run.stdout + run.stderr).not.toContain(secret);
      } finally {
        await proxy.stop();
      }
    }, 60_000);

    it('a wrong password is one line: the proxy refused the credentials (tinyproxy answers CONNECT 401; 407 without any), named without them', async () => {
      seed();
      const proxy = await startTinyproxy({ auth });
      try {
        const url = await bucket();
        const run = await sync(url, { HTTP_PROXY: `http://user:wrong-${PASSWORD}@127.0.0.1:${proxy.port}` }, [
          '--debug',
        ]);
        expect(run.code).toBe(1);
        // With --debug a stack trace follows the line.
        expect(run.stderr.split('\n').filter((line) => line.startsWith('svc: '))).toEqual([
          `svc: ${url}: proxy 127.0.0.1:${proxy.port} did not pass the request to 127.0.0.1:${s3Port()} on: the proxy refused its user name and password (401 Unauthorized): check them in the proxy URL`,
        ]);
        const none = await sync(url, { HTTP_PROXY: proxy.plainUrl });
        expect(none.code).toBe(1);
        const lines = none.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        // The transports' line (proxy-errors.ts), its hint whole (no URL the redaction would mask).
        expect(lines[0]).toBe(
          `svc: ${url}: proxy 127.0.0.1:${proxy.port} did not pass the request to 127.0.0.1:${s3Port()} on: the proxy asks for a user name and password (407 Proxy Authentication Required): put them in the proxy URL, before its host and an @ (user:password@)`,
        );
        expect(run.stdout + run.stderr).not.toContain(PASSWORD);
      } finally {
        await proxy.stop();
      }
    }, 60_000);
  },
);

describe("an https S3 endpoint with a company CA's certificate: refused in words, trusted with the CA added to Node's roots", () => {
  const httpsEnv = (extra: Record<string, string> = {}) => ({ AWS_ENDPOINT_URL_S3: front.url, ...extra });

  it('refused: one line naming the host, the cause and the fixes; the archive named, not the probe', async () => {
    seed();
    const url = await bucket();
    const run = await sync(url, httpsEnv());
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `svc: ${url}: certificate of localhost:${front.port} not trusted (unable to verify the first certificate): add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS`,
    ]);
  }, 60_000);

  it.each([
    ['--ca-file', {}, ['--ca-file', TEST_CA]],
    ['SVC_CA_FILE', { SVC_CA_FILE: TEST_CA }, []],
    ['AWS_CA_BUNDLE', { AWS_CA_BUNDLE: TEST_CA }, []],
    ['NODE_EXTRA_CA_CERTS', { NODE_EXTRA_CA_CERTS: TEST_CA }, []],
    [
      'AWS_CA_BUNDLE of another CA beside NODE_EXTRA_CA_CERTS (added to the roots, not replacing them)',
      { AWS_CA_BUNDLE: OTHER_CA, NODE_EXTRA_CA_CERTS: TEST_CA },
      [],
    ],
  ] as const)(
    'accepted with %s',
    async (_, env, global) => {
      seed();
      const run = await sync(await bucket(), httpsEnv(env), [...global]);
      expect(run.code, run.stderr).toBe(0);
    },
    60_000,
  );

  it('another CA alone is still refused', async () => {
    seed();
    const run = await sync(await bucket(), httpsEnv({ AWS_CA_BUNDLE: OTHER_CA }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not trusted (unable to verify the first certificate)');
  }, 60_000);

  it.skipIf(!haveProxy)(
    'through the proxy (CONNECT) with AWS_CA_BUNDLE: accepted, the tunnel in the proxy log',
    async () => {
      seed();
      const proxy = await startTinyproxy();
      try {
        const run = await sync(
          await bucket(),
          httpsEnv({ AWS_CA_BUNDLE: TEST_CA, HTTPS_PROXY: proxy.plainUrl }),
        );
        expect(run.code, run.stderr).toBe(0);
        expect(connectsTo(proxy, front.port, 'localhost').length).toBeGreaterThan(0);
      } finally {
        await proxy.stop();
      }
    },
    60_000,
  );

  it('an AWS_CA_BUNDLE that is missing or holds no certificate is one line, exit 2', async () => {
    const missing = join(root, 'no-such-ca.pem');
    const notPem = join(root, 'not-a-ca.pem');
    writeFileSync(notPem, 'not a certificate\n');
    const url = await bucket();
    const gone = await sync(url, httpsEnv({ AWS_CA_BUNDLE: missing }));
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim().split('\n')).toEqual([
      `svc: AWS_CA_BUNDLE ${missing}: the file does not exist`,
    ]);
    const empty = await sync(url, httpsEnv({ AWS_CA_BUNDLE: notPem }));
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim().split('\n')).toEqual([
      `svc: AWS_CA_BUNDLE ${notPem}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    ]);
  }, 60_000);
});
