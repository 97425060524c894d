import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

const CASES: Array<[string, string[]]> = [
  ['unknown command', ['frobnicate']],
  ['unknown global option', ['--frob']],
  ['validate without arguments', ['validate']],
  ['validate with a bad country code', ['validate', 'D3', '136695976']],
  ['validate with bad metadata', ['validate', 'DE', '136695976', '--metadata', 'x']],
  ['validate with a bad --precheck', ['validate', 'DE', '136695976', '--precheck', 'sometimes']],
  ['validate with a bad --schedule', ['validate', 'DE', '136695976', '--schedule', 'WEEKLY']],
  ['validate with a bad --timeout', ['--timeout', 'soon', 'validate', 'DE', '136695976']],
  ['validate with a negative --max-retries', ['--max-retries', '-1', 'validate', 'DE', '136695976']],
  ['validate with a bad --output', ['-o', 'xml', 'validate', 'DE', '136695976']],
  ['validate with an unknown --provider', ['validate', 'DE', '136695976', '--provider', 'NOPE']],
  [
    'captcha result with a bad --on-failover',
    ['captcha', 'result', '00000000-0000-0000-0000-000000000000', '--on-failover', 'maybe'],
  ],
  [
    'schedules create with a bad --frequency',
    ['schedules', 'create', 'DE', '136695976', '--frequency', 'weekly'],
  ],
  ['config get with an unknown setting', ['config', 'get', 'colour']],
  ['completion for an unknown shell', ['completion', 'tcsh']],
  ['precheck without a value', ['precheck', 'DE']],
  ['results get without an id', ['results', 'get']],
  ['schedules create without --frequency', ['schedules', 'create', 'DE', '136695976']],
  ['schedules delete without an id', ['schedules', 'delete']],
  ['batch without a file', ['batch']],
  ['batch with a bad --chunk-size', ['batch', 'in.csv', '--chunk-size', '0']],
  ['batch with a bad --concurrency', ['batch', 'in.csv', '--concurrency', 'many']],
  ['batch with a bad --strategy', ['batch', 'in.csv', '--strategy', 'magic']],
  ['batch --resume without --out', ['batch', 'in.csv', '--resume']],
  ['audit list with a non-ISO --from', ['audit', 'list', '--from', 'yesterday']],
  ['audit list with a bad --page-size', ['audit', 'list', '--page-size', '10000000000']],
  ['audit export with a bad --to', ['audit', 'export', '--to', '2026-13-45']],
  ['audit tail with a bad --interval', ['audit', 'tail', '--interval', 'often']],
  ['captcha result with a broken token', ['captcha', 'result', 'not-a-token!']],
  [
    'captcha result with a bad --policy',
    ['captcha', 'result', '00000000-0000-0000-0000-000000000000', '--policy', 'vibes'],
  ],
  ['captcha legacy without an id', ['captcha', 'legacy']],
  ['token decode with a broken token', ['token', 'decode', '%%%']],
  ['webhooks listen with a bad --port', ['webhooks', 'listen', '--port', '99999']],
  ['config set with an unknown setting', ['config', 'set', 'colour', 'blue']],
  ['config set with a bad base-url', ['config', 'set', 'base-url', 'ftp://x']],
  ['serve with a bad --port', ['serve', '--port', 'eighty']],
];

describe('every command given malformed arguments exits 2 with one line and no stack trace', () => {
  it.each(CASES)('%s', async (_name, args) => {
    const run = await runSvc(args, {
      env: {
        SVC_BASE_URL: server().url,
        SVC_API_KEY: 'ak_demo_project',
        XDG_CONFIG_HOME: '/nonexistent-svc-test',
      },
    });
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: /);
    expect(run.stderr).not.toMatch(/\bat .*:\d+:\d+/);
    expect(server().admin.requests()).toHaveLength(0);
  });
});

describe('a bad client setting is named where the user wrote it: the flag or the environment variable', () => {
  it.each([
    [['--timeout', 'soon'], {}, '--timeout must be a whole number, got "soon"'],
    [[], { SVC_TIMEOUT: 'soon' }, 'SVC_TIMEOUT must be a whole number, got "soon"'],
    [['--max-retries', '99'], {}, '--max-retries must be between 0 and 10, got 99'],
    [[], { SVC_MAX_RETRIES: 'many' }, 'SVC_MAX_RETRIES must be a whole number, got "many"'],
    [['--deadline', 'soon'], {}, '--deadline must be a whole number, got "soon"'],
    [[], { SVC_DEADLINE: '0' }, `SVC_DEADLINE must be between 1 and ${Number.MAX_SAFE_INTEGER}, got 0`],
    // The flag wins over the variable, and so does its name in the error.
    [['--timeout', 'soon'], { SVC_TIMEOUT: '5000' }, '--timeout must be a whole number, got "soon"'],
  ])('%j with %j', async (flags, env, message) => {
    const run = await runSvc([...flags, 'validate', 'DE', '136695976'], {
      env: {
        SVC_BASE_URL: server().url,
        SVC_API_KEY: 'ak_demo_project',
        XDG_CONFIG_HOME: '/nonexistent-svc-test',
        ...env,
      },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`svc: ${message}\n`);
    expect(server().admin.requests()).toHaveLength(0);
  });
});
