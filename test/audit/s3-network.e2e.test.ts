import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { OTHER_CA, startTlsFront, TEST_CA, type TlsFront } from '../helpers/tls-front.js';
import { HOUR } from './helpers.js';

// #41 items 1 and 2 for bucket archives: `svc audit sync --dir s3://...` through a real proxy
// (Debian's tinyproxy, started here on loopback, with and without Basic auth) and against an S3
// endpoint whose certificate comes from a CA Node does not trust (test/fixtures/tls).

const TINYPROXY = '/usr/bin/tinyproxy';
const haveProxy = existsSync(TINYPROXY);
if (!haveProxy) {
  if (process.env.CI === 'true')
    throw new Error(`${TINYPROXY} is missing: .ci/run installs Debian's tinyproxy`);
  console.warn(
    `skipping the proxy tests of s3-network.e2e: ${TINYPROXY} is not installed (apt-get install tinyproxy)`,
  );
}

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
  front = await startTlsFront(Number(new URL(s3.endpoint).port));
  root = mkdtempSync(join(tmpdir(), 'svc-s3-net-'));
}, 180_000);
afterAll(async () => {
  await front?.close();
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A free loopback port: bound to 0 and released (tinyproxy takes it next). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Tinyproxy {
  /** `http://127.0.0.1:<port>` (no credentials). */
  url: string;
  port: number;
  /** The proxy's log so far. */
  log(): string;
  stop(): Promise<void>;
}

/** tinyproxy on 127.0.0.1 in the foreground, with `BasicAuth user PASSWORD` when `auth`. */
async function startTinyproxy(auth: boolean): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(root, 'proxy-'));
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const conf = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Allow 127.0.0.1',
    `LogFile "${logFile}"`,
    'LogLevel Info',
    'Timeout 60',
    ...(auth ? [`BasicAuth user ${PASSWORD}`] : []),
  ];
  writeFileSync(join(dir, 'tinyproxy.conf'), `${conf.join('\n')}\n`);
  const child: ChildProcess = spawn(TINYPROXY, ['-d', '-c', join(dir, 'tinyproxy.conf')], {
    stdio: 'ignore',
  });
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  // Polled, not timed: ready once it says so.
  while (!log().includes('Accepting connections') && child.exitCode === null) await wait(20);
  if (child.exitCode !== null) throw new Error(`tinyproxy exited: ${log()}`);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

function seed(): void {
  server().admin.reset();
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({
    count: 20,
    scope: 'project',
    from: new Date(T0 - 2 * HOUR).toISOString(),
    to: new Date(T0 - HOUR).toISOString(),
  });
}

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
  const home = mkdtempSync(join(root, 'home-'));
  return runBin(
    [...global, 'audit', 'sync', '--dir', url, '--since', new Date(T0 - 3 * HOUR).toISOString()],
    {
      env: {
        ...s3.env,
        HOME: home,
        TMPDIR: home,
        SVC_API_KEY: 'ak_demo_project',
        SVC_BASE_URL: server().url,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        NO_PROXY: apiHost(),
        ...env,
      },
    },
  );
}

/** The lines of the proxy's log that are CONNECT requests to `port`. */
const connectsTo = (proxy: Tinyproxy, port: number | string) =>
  proxy
    .log()
    .split('\n')
    .filter((line) => line.includes(`: CONNECT 127.0.0.1:${port} `));

const s3Port = () => new URL(s3.endpoint).port;

describe.skipIf(!haveProxy)(
  'the S3 archive goes through the proxy of HTTP(S)_PROXY and --proxy, NO_PROXY honoured',
  () => {
    it('HTTP_PROXY: the sync passes and the proxy log shows its connection to the S3 endpoint', async () => {
      seed();
      const proxy = await startTinyproxy(false);
      try {
        const run = await sync(await bucket(), { HTTP_PROXY: proxy.url });
        expect(run.code, run.stderr).toBe(0);
        expect(connectsTo(proxy, s3Port()).length).toBeGreaterThan(0);
      } finally {
        await proxy.stop();
      }
    }, 60_000);

    it('--proxy and lowercase http_proxy do the same; NO_PROXY naming the endpoint goes direct', async () => {
      seed();
      const proxy = await startTinyproxy(false);
      try {
        const flag = await sync(await bucket(), {}, ['--proxy', proxy.url]);
        expect(flag.code, flag.stderr).toBe(0);
        const viaFlag = connectsTo(proxy, s3Port()).length;
        expect(viaFlag).toBeGreaterThan(0);
        const lower = await sync(await bucket(), { http_proxy: proxy.url });
        expect(lower.code, lower.stderr).toBe(0);
        const viaLower = connectsTo(proxy, s3Port()).length;
        expect(viaLower).toBeGreaterThan(viaFlag);
        const direct = await sync(await bucket(), {
          HTTP_PROXY: proxy.url,
          NO_PROXY: `${apiHost()},127.0.0.1:${s3Port()}`,
        });
        expect(direct.code, direct.stderr).toBe(0);
        expect(connectsTo(proxy, s3Port()).length).toBe(viaLower);
      } finally {
        await proxy.stop();
      }
    }, 90_000);

    it('with the proxy stopped the run fails naming the proxy (nothing goes around it)', async () => {
      seed();
      const proxy = await startTinyproxy(false);
      await proxy.stop();
      const url = await bucket();
      const run = await sync(url, { HTTP_PROXY: `http://user:${PASSWORD}@127.0.0.1:${proxy.port}` });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `svc: ${url}: cannot reach the proxy http://127.0.0.1:${proxy.port} (ECONNREFUSED): check the proxy setting (--proxy, HTTPS_PROXY, HTTP_PROXY) or list 127.0.0.1:${s3Port()} in NO_PROXY`,
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
      const proxy = await startTinyproxy(true);
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

    it('a wrong password is one line: the proxy refused the credentials (tinyproxy answers CONNECT 401), named without them', async () => {
      seed();
      const proxy = await startTinyproxy(true);
      try {
        const url = await bucket();
        const run = await sync(url, { HTTP_PROXY: `http://user:wrong-${PASSWORD}@127.0.0.1:${proxy.port}` }, [
          '--debug',
        ]);
        expect(run.code).toBe(1);
        // With --debug a stack trace follows the line.
        expect(run.stderr.split('\n').filter((line) => line.startsWith('svc: '))).toEqual([
          `svc: ${url}: the proxy http://127.0.0.1:${proxy.port} refused the credentials (HTTP 401): check the user and password of the proxy URL`,
        ]);
        const none = await sync(url, { HTTP_PROXY: proxy.url });
        expect(none.code).toBe(1);
        expect(none.stderr.trim().split('\n')).toEqual([
          `svc: ${url}: the proxy http://127.0.0.1:${proxy.port} asks for credentials (HTTP 407 Proxy Authentication Required): put them in the proxy URL (USER:PASSWORD@ before the host)`,
        ]);
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
      `svc: ${url}: certificate of 127.0.0.1:${front.port} not trusted (unable to verify the first certificate): add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS`,
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
      const proxy = await startTinyproxy(false);
      try {
        const run = await sync(await bucket(), httpsEnv({ AWS_CA_BUNDLE: TEST_CA, HTTPS_PROXY: proxy.url }));
        expect(run.code, run.stderr).toBe(0);
        expect(connectsTo(proxy, front.port).length).toBeGreaterThan(0);
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
