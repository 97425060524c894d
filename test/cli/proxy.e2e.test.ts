import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { type BinRun, lines, runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTinyproxy, type Tinyproxy, tinyproxyMissing } from '../helpers/tinyproxy.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';

const server = useReferenceServer();
const PASSWORD = 'pr0xy-s3cret-pw';
let home: string;
let proxy: Tinyproxy;
let front: TlsFront;

/** Every request kind of the acceptance list, as `svc` arguments and the key it needs. */
const KINDS: Array<{ name: string; args: () => string[]; key: string; path: string }> = [
  {
    name: 'tax validate',
    args: () => ['validate', 'DE', '136695976'],
    key: DEMO.projectKey,
    path: '/taxvalidation/v1/validations',
  },
  {
    name: 'audit export',
    args: () => [
      'audit',
      'export',
      '--out',
      join(home, `export-${Date.now()}.ndjson`),
      '--from',
      '2020-01-01',
    ],
    key: DEMO.agencyKey,
    path: '/platform/v1/events',
  },
  {
    name: 'audit sync to a folder',
    args: () => ['audit', 'sync', '--dir', join(home, `archive-${Date.now()}`)],
    key: DEMO.agencyKey,
    path: '/platform/v1/events',
  },
  {
    name: 'captcha result',
    args: () => ['captcha', 'result', IDS.passed],
    key: TEST_KEY,
    path: '/captcha/v2/verifications/',
  },
  {
    name: 'captcha legacy',
    args: () => ['captcha', 'legacy', IDS.passed],
    key: TEST_KEY,
    path: '/verifications/',
  },
  {
    name: 'doctor',
    args: () => ['doctor'],
    key: DEMO.projectKey,
    path: '/taxvalidation/v1/validation-results/',
  },
];

/** `svc` with only the given environment (runBin adds PATH, HOME, NO_COLOR), `--debug` on. */
const svc = (args: string[], env: Record<string, string>): Promise<BinRun> =>
  runBin(['--debug', ...args], { env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ...env } });

/** No line of a run shows the proxy password (stdout, stderr, --debug lines, error lines). */
function expectNoPassword(run: BinRun): void {
  expect(run.stdout).not.toContain(PASSWORD);
  expect(run.stderr).not.toContain(PASSWORD);
}

beforeAll(async () => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), 'svc-proxy-cli-'));
  if (!tinyproxyMissing) proxy = await startTinyproxy({ auth: { user: 'svc', pass: PASSWORD } });
  front = await startTlsFront(server().url);
});
afterAll(async () => {
  await Promise.all([proxy?.stop(), front?.close()]);
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(tinyproxyMissing)(
  'every request kind goes through HTTP_PROXY (Basic auth), password never shown',
  () => {
    for (const kind of KINDS) {
      it(kind.name, async () => {
        const before = proxy.requests().length;
        const run = await svc(['--base-url', server().url, ...kind.args()], {
          SVC_API_KEY: kind.key,
          HTTP_PROXY: proxy.url,
        });
        expect(run.stderr).not.toMatch(/^svc: /m);
        expect(run.code).toBe(0);
        const seen = proxy.requests().slice(before);
        expect(seen.some((r) => r.includes(`${server().url}${kind.path}`))).toBe(true);
        expectNoPassword(run);
      });
    }
  },
);

describe.skipIf(tinyproxyMissing)(
  'with the proxy stopped every kind fails naming the proxy: nothing goes around it',
  () => {
    for (const kind of KINDS) {
      it(kind.name, async () => {
        const gone = await startTinyproxy();
        await gone.stop();
        const url = gone.plainUrl.replace('//', `//svc:${PASSWORD}@`);
        const run = await svc(['--base-url', server().url, '--max-retries', '0', ...kind.args()], {
          SVC_API_KEY: kind.key,
          https_proxy: url,
          http_proxy: url,
        });
        expect(run.code).not.toBe(0);
        expect(`${run.stdout}${run.stderr}`).toContain(`proxy 127.0.0.1:${gone.port}`);
        expectNoPassword(run);
      });
    }
  },
);

describe.skipIf(tinyproxyMissing)('which proxy, and when none', () => {
  it('NO_PROXY sends a listed host direct (a proxy that is down is not touched)', async () => {
    const run = await svc(['--base-url', server().url, 'validate', 'DE', '136695976'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTP_PROXY: 'http://127.0.0.1:1',
      NO_PROXY: 'example.com,127.0.0.1',
    });
    expect(run.code).toBe(0);
  });
  it('--proxy wins over the environment, and NO_PROXY still applies to it (as in curl)', async () => {
    const before = proxy.requests().length;
    const via = await svc(['--proxy', proxy.url, '--base-url', server().url, 'validate', 'DE', '136695976'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTP_PROXY: 'http://127.0.0.1:1',
    });
    expect(via.code).toBe(0);
    expect(proxy.requests().length).toBe(before + 1);
    const direct = await svc(
      ['--proxy', 'http://127.0.0.1:1', '--base-url', server().url, 'validate', 'DE', '136695976'],
      {
        SVC_API_KEY: DEMO.projectKey,
        no_proxy: '127.0.0.1',
      },
    );
    expect(direct.code).toBe(0);
  });
  it("--proxy '' turns the environment's proxy off", async () => {
    const run = await svc(['--proxy', '', '--base-url', server().url, 'validate', 'DE', '136695976'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTP_PROXY: 'http://127.0.0.1:1',
    });
    expect(run.code).toBe(0);
  });
  it('the profile key proxy is used, and config output hides its password', async () => {
    const env = { SVC_API_KEY: DEMO.projectKey };
    expect((await svc(['config', 'set', 'proxy', proxy.url], env)).code).toBe(0);
    try {
      const list = await svc(['config', 'list', '-o', 'json'], env);
      expect(list.stdout).toContain(`http://***@127.0.0.1:${proxy.port}`);
      expectNoPassword(list);
      const get = await svc(['config', 'get', 'proxy'], env);
      expectNoPassword(get);
      const before = proxy.requests().length;
      const run = await svc(['--base-url', server().url, 'validate', 'DE', '136695976'], env);
      expect(run.code).toBe(0);
      expect(proxy.requests().length).toBe(before + 1);
      const doctor = await svc(['--base-url', server().url, 'doctor', '-o', 'json'], env);
      const report = JSON.parse(doctor.stdout);
      expect(report.settings).toContainEqual({
        name: 'proxy',
        value: `http://***@127.0.0.1:${proxy.port}`,
        source: "profile 'default'",
      });
      expectNoPassword(doctor);
    } finally {
      await svc(['config', 'unset', 'proxy'], env);
    }
  });
  it('a wrong password: the proxy named as refusing it (exit 1), no password shown', async () => {
    const wrong = proxy.url.replace(PASSWORD, `${PASSWORD}-wrong`);
    const run = await svc(['--proxy', wrong, '--base-url', server().url, 'validate', 'DE', '136695976'], {
      SVC_API_KEY: DEMO.projectKey,
    });
    expect(run.code).toBe(1);
    expect(lines(run.stderr).filter((l) => l.startsWith('svc: '))).toEqual([
      `svc: proxy 127.0.0.1:${proxy.port} did not pass the request to ${new URL(server().url).host} on: the proxy refused its user name and password (401 Unauthorized): check them in the proxy URL`,
    ]);
    expectNoPassword(run);
  });
  it('doctor says which proxy, from where, and whether it answered', async () => {
    const ok = await svc(['--base-url', server().url, 'doctor', '-o', 'json'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTP_PROXY: proxy.url,
    });
    const report = JSON.parse(ok.stdout);
    for (const api of report.apis)
      expect(api).toMatchObject({ proxy: proxy.plainUrl, proxyAnswered: true, ok: true });
    const gone = await startTinyproxy();
    await gone.stop();
    const down = await svc(['--base-url', server().url, 'doctor', '-o', 'table'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTPS_PROXY: 'http://127.0.0.1:1',
      HTTP_PROXY: gone.url,
    });
    expect(down.code).toBe(1);
    expect(down.stdout).toContain(
      `through proxy ${gone.plainUrl} (from HTTPS_PROXY, HTTP_PROXY; the proxy does not answer)`,
    );
    expect(down.stdout).toContain('the proxy does not answer: Connection to proxy');
    expect(down.stdout).not.toContain('no answer from the base URL');
  });
  it('an https base URL through a CONNECT tunnel with --ca-file', async () => {
    const before = proxy.requests().length;
    const run = await svc(
      ['--ca-file', TEST_TLS.caFile, '--base-url', front.url, 'validate', 'DE', '136695976'],
      {
        SVC_API_KEY: DEMO.projectKey,
        HTTPS_PROXY: proxy.url,
      },
    );
    expect(run.stderr).not.toMatch(/^svc: /m);
    expect(run.code).toBe(0);
    expect(proxy.requests().slice(before)).toContain(`CONNECT localhost:${front.port} HTTP/1.1`);
    expectNoPassword(run);
  });
});

describe('a bad proxy setting is one line, exit 2', () => {
  it('a proxy URL that is not http(s)', async () => {
    const run = await svc(['--base-url', server().url, 'validate', 'DE', '136695976'], {
      SVC_API_KEY: DEMO.projectKey,
      HTTPS_PROXY: `socks5://svc:${PASSWORD}@127.0.0.1:1`,
    });
    expect(run.code).toBe(2);
    expect(lines(run.stderr).filter((l) => l.startsWith('svc: '))).toEqual([
      'svc: HTTPS_PROXY must be an http:// or https:// proxy URL, not socks5:// (socks5://***@127.0.0.1:1)',
    ]);
    expectNoPassword(run);
  });
});

