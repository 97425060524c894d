import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const VALID = 'ak_demo_project';
const UNKNOWN = 'ak_live_Zq8vT3nR5kW1pX7mB2cY9dF4';
let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
  config = mkdtempSync(join(tmpdir(), 'svc-secrets-config-'));
  writeFileSync(join(dir, 'in.csv'), 'countryCode,rawValue\nDE,136695976\nDE,x\n');
});

/** Every file below `root`, with its content. */
function files(root: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push([path, readFileSync(path, 'utf8')]);
  }
  return out;
}

function commands(): Array<{ name: string; args: string[]; abortWhen?: () => boolean }> {
  const id = '00000000-0000-0000-0000-000000000001';
  return [
    { name: 'validate', args: ['validate', 'DE', '136695976', '--metadata', 'a=b'] },
    { name: 'validate (local error)', args: ['validate', 'DE', 'x'.repeat(30)] },
    { name: 'precheck', args: ['precheck', 'DE', '136695976'] },
    { name: 'results get', args: ['results', 'get', 'valres_missing'] },
    { name: 'schedules create', args: ['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'] },
    { name: 'schedules delete', args: ['schedules', 'delete', 'sched_missing'] },
    {
      name: 'batch',
      args: [
        'batch',
        join(dir, 'in.csv'),
        '--out',
        join(dir, 'out.ndjson'),
        '--rejects',
        join(dir, 'rejects.csv'),
      ],
    },
    { name: 'audit list', args: ['audit', 'list'] },
    { name: 'audit export', args: ['audit', 'export', '--out', join(dir, 'audit.ndjson')] },
    {
      name: 'audit tail',
      args: ['audit', 'tail', '--interval', '1'],
      abortWhen: () =>
        server()
          .admin.requests()
          .some((r) => r.path === '/platform/v1/events'),
    },
    { name: 'captcha result', args: ['captcha', 'result', id] },
    { name: 'captcha legacy', args: ['captcha', 'legacy', id] },
    { name: 'token decode', args: ['token', 'decode', 'bm90IGEgdG9rZW4'] },
    {
      name: 'webhooks listen',
      args: ['webhooks', 'listen', '--out', join(dir, 'events.ndjson')],
      abortWhen: () => true,
    },
    { name: 'config list', args: ['config', 'list'] },
    { name: 'openapi', args: ['openapi'] },
  ];
}

async function runWithKey(key: string, args: string[], viaFlag: boolean, abortWhen?: () => boolean) {
  const controller = new AbortController();
  let watching = true;
  const watch = async () => {
    while (watching && abortWhen) {
      if (abortWhen()) {
        controller.abort();
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  void watch();
  const env = {
    SVC_BASE_URL: server().url,
    XDG_CONFIG_HOME: config,
    ...(viaFlag ? {} : { SVC_API_KEY: key }),
  };
  const run = await runSvc(['--debug', ...(viaFlag ? ['--api-key', key] : []), ...args], {
    env,
    signal: controller.signal,
  });
  watching = false;
  return run;
}

describe('no command prints a key or writes it to a file, even with --debug', () => {
  it.each([
    [VALID, false],
    [VALID, true],
    [UNKNOWN, false],
  ])(
    'key %s (given as flag: %s)',
    async (key, viaFlag) => {
      // The config file is the one place a key may be stored.
      await runSvc(['config', 'set', 'api-key'], { env: { XDG_CONFIG_HOME: config }, stdin: key });
      for (const { name, args, abortWhen } of commands()) {
        const run = await runWithKey(key, args, viaFlag, abortWhen);
        expect(`${run.stdout}\n${run.stderr}`, name).not.toContain(key);
      }
      for (const [path, content] of files(dir)) expect(content, path).not.toContain(key);
      const stored = files(config);
      expect(stored).toHaveLength(1);
      expect(stored[0]?.[1]).toContain(key);
      expect(statSync(stored[0]?.[0] as string).mode & 0o777).toBe(0o600);
      expect(statSync(join(config, 'svc')).mode & 0o777).toBe(0o700);
      // The server's request log holds masked keys only.
      expect(JSON.stringify(server().admin.requests())).not.toContain(key);
    },
    60_000,
  );
});
