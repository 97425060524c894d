import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS } from '../../src/botcheck/test-ids.js';
import { describeError } from '../../src/cli/error-line.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { printData } from '../../src/cli/output.js';
import { UsageError } from '../../src/cli/usage-error.js';
import {
  ConnectionError,
  createApiError,
  LocalValidationError,
  SvcError,
  TokenDecodeError,
} from '../../src/core/errors/index.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { closedPort } from '../core/local-servers.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const SECRET = 'ak_secret_value_1234567890';
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

let configHome: string;
let env: Record<string, string>;

beforeEach(() => {
  configHome = mkdtempSync(join(tmpdir(), 'svc-shell-'));
  env = { XDG_CONFIG_HOME: configHome };
});
afterEach(() => rmSync(configHome, { recursive: true, force: true }));

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const configFile = () => join(configHome, 'svc', 'config.json');

describe('svc --help lists the commands and exits 0', () => {
  it('shows global options and commands on stdout', async () => {
    const run = await runSvc(['--help'], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const word of ['validate', 'precheck', 'config', 'serve', '--base-url', '--api-key', '--profile']) {
      expect(run.stdout).toContain(word);
    }
    for (const option of [
      '--output',
      '--sandbox',
      '--timeout',
      '--max-retries',
      '--debug',
      '--quiet',
      '--no-color',
    ]) {
      expect(run.stdout).toContain(option);
    }
  });

  it('a command has its own help', async () => {
    const run = await runSvc(['config', '--help'], { env });
    expect(run.code).toBe(0);
    for (const sub of ['set', 'get', 'list', 'path']) expect(run.stdout).toContain(sub);
  });
});

describe('svc --version prints the package version', () => {
  it('prints package.json version', async () => {
    const run = await runSvc(['--version'], { env });
    expect(run).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('a usage error exits 2 with exactly one line on stderr', () => {
  for (const args of [['--nope'], ['frobnicate'], ['config', 'set'], ['validate', 'DE'], ['--output']]) {
    it(`svc ${args.join(' ')}`, async () => {
      const run = await runSvc(args, { env });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toMatch(/^svc: /);
      expect(run.stdout).toBe('');
    });
  }
});

describe('svc config set api-key reads the key from stdin into a 0600 file in a 0700 folder', () => {
  it('writes $XDG_CONFIG_HOME/svc/config.json', async () => {
    const run = await runSvc(['config', 'set', 'api-key'], { env, stdin: `${SECRET}\n` });
    expect(run.code).toBe(0);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(configHome, 'svc')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      profiles: { default: { 'api-key': SECRET } },
    });
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('the confirmation line shows the key masked as everywhere else (ak_abcd...wxyz)', async () => {
    const run = await runSvc(['config', 'set', 'api-key'], { env, stdin: SECRET });
    expect(run.stderr).toContain('Saved api-key = ak_secr...7890');
  });

  it('svc config path names that file', async () => {
    const run = await runSvc(['config', 'path'], { env });
    expect(run.stdout).toBe(`${configFile()}\n`);
  });
});

describe('config list and config get never print the whole key', () => {
  it('shows keys masked and other settings plainly', async () => {
    await runSvc(['config', 'set', 'api-key'], { env, stdin: SECRET });
    await runSvc(['config', 'set', 'base-url', 'http://127.0.0.1:4010'], { env });
    const list = await runSvc(['config', 'list', '-o', 'json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { profile: 'default', key: 'base-url', value: 'http://127.0.0.1:4010' },
      { profile: 'default', key: 'api-key', value: 'ak_secr...7890' },
    ]);
    for (const format of ['table', 'csv', 'ndjson']) {
      const shown = await runSvc(['config', 'list', '-o', format], { env });
      expect(shown.stdout + shown.stderr).not.toContain(SECRET);
      expect(shown.stdout).toContain('ak_secr...7890');
    }
    const get = await runSvc(['config', 'get', 'api-key'], { env });
    expect(get).toMatchObject({ code: 0, stdout: 'ak_secr...7890\n' });
  });

  it('a key given as an argument is stored, warned about, and not echoed', async () => {
    const run = await runSvc(['config', 'set', 'api-key', SECRET], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('shell history');
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });
});

describe('config set rejects unknown settings and bad values with exit 2', () => {
  for (const args of [
    ['config', 'set', 'colour', 'blue'],
    ['config', 'get', 'colour'],
    ['config', 'set', 'base-url', 'not a url'],
    ['config', 'set', 'output', 'xml'],
    ['config', 'set', 'timeout', 'soon'],
    ['config', 'set', 'deadline', '0'],
  ]) {
    it(args.slice(1).join(' '), async () => {
      const run = await runSvc(args, { env });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
    });
  }
});

describe('profiles: --profile and SVC_PROFILE select a profile', () => {
  it('keeps settings per profile', async () => {
    await runSvc(['--profile', 'ci', 'config', 'set', 'base-url', 'http://ci.example.com'], { env });
    await runSvc(['config', 'set', 'base-url', 'http://default.example.com'], { env });
    expect((await runSvc(['--profile', 'ci', 'config', 'get', 'base-url'], { env })).stdout).toBe(
      'http://ci.example.com\n',
    );
    expect((await runSvc(['config', 'get', 'base-url'], { env: { ...env, SVC_PROFILE: 'ci' } })).stdout).toBe(
      'http://ci.example.com\n',
    );
    expect((await runSvc(['config', 'get', 'base-url'], { env })).stdout).toBe(
      'http://default.example.com\n',
    );
    const missing = await runSvc(['--profile', 'other', 'config', 'get', 'base-url'], { env });
    expect(missing.code).toBe(1);
  });
});

describe('precedence for the base URL: flag > env > profile', () => {
  it('names the URL that was used in the connection error', async () => {
    const [flagPort, envPort, profilePort] = [await closedPort(), await closedPort(), await closedPort()];
    await runSvc(['config', 'set', 'base-url', `http://127.0.0.1:${profilePort}`], { env });
    const call = (args: string[], extra: Record<string, string> = {}) =>
      runSvc([...args, '--max-retries', '0', '--api-key', TEST_KEY, 'validate', 'DE', '136695976'], {
        env: { ...env, ...extra },
      });
    const urlIn = (stderr: string) => /127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];

    const profileOnly = await call([]);
    expect(profileOnly.code).toBe(1);
    expect(lines(profileOnly.stderr)).toHaveLength(1);
    expect(urlIn(profileOnly.stderr)).toBe(String(profilePort));

    const envWins = await call([], { SVC_BASE_URL: `http://127.0.0.1:${envPort}` });
    expect(urlIn(envWins.stderr)).toBe(String(envPort));

    const flagWins = await call(['--base-url', `http://127.0.0.1:${flagPort}`], {
      SVC_BASE_URL: `http://127.0.0.1:${envPort}`,
    });
    expect(urlIn(flagWins.stderr)).toBe(String(flagPort));
  });

  it('with no base URL anywhere, exits 2 naming the ways to set one', async () => {
    const run = await runSvc(['--api-key', TEST_KEY, 'validate', 'DE', '136695976'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url');
  });
});

describe('--debug with a known key prints no whole key anywhere', () => {
  const everything = (run: { stdout: string; stderr: string }) => run.stdout + run.stderr;

  it('key from the flag: success', async () => {
    const run = await runSvc(
      ['--debug', '--base-url', server().url, '--api-key', TEST_KEY, 'validate', 'DE', '136695976'],
      {
        env,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /\[debug\] HTTP POST http:\/\/127\.0\.0\.1:\d+\/taxvalidation\/v1\/validations -> 201/,
    );
    expect(everything(run)).not.toContain(TEST_KEY);
  });

  it('key from the environment and from the profile: failures with stack traces', async () => {
    const fromEnv = await runSvc(['--debug', '--base-url', server().url, 'validate', 'DE', '136695976'], {
      env: { ...env, SVC_API_KEY: DEMO.expiredKey },
    });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('403 Forbidden: POST /taxvalidation/v1/validations');
    expect(fromEnv.stderr).toContain('    at ');
    expect(everything(fromEnv)).not.toContain(DEMO.expiredKey);

    await runSvc(['config', 'set', 'api-key'], { env, stdin: SECRET });
    const fromProfile = await runSvc(['--debug', '--base-url', server().url, 'validate', 'DE', '136695976'], {
      env,
    });
    expect(fromProfile.code).toBe(1);
    expect(everything(fromProfile)).not.toContain(SECRET);
  });

  it('without --debug a failure is one line and no stack', async () => {
    const run = await runSvc(
      ['--base-url', server().url, '--api-key', DEMO.lockedKey, 'validate', 'DE', '136695976'],
      {
        env,
      },
    );
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'svc: 402 Payment Required: POST /taxvalidation/v1/validations (Project is locked)',
    ]);
  });
});

describe('--timeout, --deadline and --max-retries are checked before anything is sent', () => {
  for (const [flag, value] of [
    ['--timeout', 'soon'],
    ['--timeout', '0'],
    ['--deadline', 'soon'],
    ['--deadline', '0'],
    ['--max-retries', '11'],
    ['--max-retries', '-1'],
  ] as const) {
    it(`${flag} ${value} exits 2`, async () => {
      const run = await runSvc(
        [
          '--base-url',
          server().url,
          '--api-key',
          TEST_KEY,
          `${flag}=${value}`,
          'validate',
          'DE',
          '136695976',
        ],
        { env },
      );
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(flag);
      expect(server().admin.requests()).toEqual([]);
    });
  }
});

describe('--sandbox runs against an in-process reference server with the demo key', () => {
  it('validates without a base URL or key', async () => {
    const run = await runSvc(['--sandbox', '--debug', '-o', 'json', 'validate', 'DE', '136695976'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'COMPLETED' });
    expect(run.stderr).toMatch(/\[debug\] sandbox reference server at http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout + run.stderr).not.toContain(DEMO.projectKey);
  });
});

describe('--schedule, --frequency and --provider take their values in any case', () => {
  it('validate --schedule monthly --provider vies', async () => {
    const args = ['--sandbox', '-o', 'json', 'validate', 'DE', '136695976', '--schedule', 'monthly'];
    const run = await runSvc([...args, '--provider', 'vies'], { env });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { provider: string; schedule?: { scheduleId: string } };
    expect(result.provider).toBe('VIES');
    expect(result.schedule?.scheduleId).toMatch(/^sched_/);
  });

  it('schedules create --frequency yearly', async () => {
    const run = await runSvc(
      ['--sandbox', '-o', 'json', 'schedules', 'create', 'DE', '136695976', '--frequency', 'yearly'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ frequency: 'YEARLY' });
  });
});

describe('--sandbox ignores every key variable, in the environment of the CLI and of the process', () => {
  const KEY_VARS = ['SVC_API_KEY', 'SVC_AUDIT_API_KEY', 'SVC_CAPTCHA_API_KEY', 'SVC_LEGACY_API_KEY'];
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(KEY_VARS.map((name) => [name, process.env[name]]));
    for (const name of KEY_VARS) process.env[name] = 'ak_other_key_of_another_project';
  });
  afterEach(() => {
    for (const name of KEY_VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('audit list exits 0 with the demo key although SVC_AUDIT_API_KEY names another', async () => {
    const keys = Object.fromEntries(KEY_VARS.map((name) => [name, process.env[name]]));
    const run = await runSvc(['--sandbox', '-o', 'json', 'audit', 'list'], { env: { ...env, ...keys } });
    expect(run.stderr).not.toContain('403');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('content');
  });

  it('captcha result and legacy authenticate with the demo key too (the test id answers 404)', async () => {
    for (const command of ['result', 'legacy']) {
      const run = await runSvc(['--sandbox', 'captcha', command, TEST_VERIFICATION_IDS.notFound], { env });
      expect(run.stderr).toContain('404');
      expect(run.code).toBe(EXIT.FAILURE);
    }
  });
});

describe('exit codes and one-line errors are mapped in one place', () => {
  it('usage and local validation errors are 2; API, network and I/O failures are 1', () => {
    const cases: Array<[unknown, number, string]> = [
      [new UsageError('--port must be a number'), EXIT.USAGE, '--port must be a number'],
      [
        new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"),
        2,
        "unknown option '--x'",
      ],
      [
        new LocalValidationError([
          { path: 'countryCode', message: 'must be 2 letters' },
          { path: 'rawValue', message: 'must not be empty' },
        ]),
        2,
        'invalid input: countryCode: must be 2 letters; rawValue: must not be empty',
      ],
      [new TokenDecodeError('NOT_JSON', 'not JSON'), 2, 'invalid verification token: not JSON'],
      [new SvcError('baseUrl is required', 'config'), 2, 'baseUrl is required'],
      [
        new ConnectionError('Connection to h:1 failed: ECONNREFUSED', false),
        1,
        'Connection to h:1 failed: ECONNREFUSED',
      ],
      [
        createApiError({ status: 401, method: 'POST', path: '/v' }),
        1,
        '401 Unauthorized: POST /v (no API key was sent: use --api-key, SVC_API_KEY or `svc config set api-key`)',
      ],
      [
        Object.assign(new Error('ENOENT: no such file'), {
          code: 'ENOENT',
          syscall: 'open',
          path: '/in.csv',
        }),
        1,
        "open '/in.csv': no such file or directory",
      ],
      ['a string', 1, 'a string'],
    ];
    for (const [error, code, line] of cases) expect(describeError(error)).toEqual({ code, line });
  });

  it('folds a multi-line message to one line and masks keys', () => {
    const { line } = describeError(new Error(`first\n  second ${TEST_KEY}`), []);
    expect(line).toBe('first second ak_xxxx...xxxx');
    expect(describeError(new Error('echo demo-captcha-secret'), [DEMO.captchaSecret]).line).toBe(
      'echo de...et',
    );
  });
});

describe('output: json, ndjson, csv and table', () => {
  const data = [
    { id: 1, name: 'Acme, Inc.' },
    { id: 2, name: '=HYPERLINK("x")' },
  ];
  const view = () => ({ head: ['id', 'name'], rows: data.map((d) => [d.id, d.name]) });
  async function render(format: 'json' | 'ndjson' | 'csv' | 'table'): Promise<string> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await printData(out, format, data, view);
    return Buffer.concat(chunks).toString('utf8');
  }

  it('json is the data unchanged', async () => {
    expect(JSON.parse(await render('json'))).toEqual(data);
  });

  it('ndjson is one object per line', async () => {
    expect((await render('ndjson')).split('\n')).toEqual([
      JSON.stringify(data[0]),
      JSON.stringify(data[1]),
      '',
    ]);
  });

  it('csv quotes fields and defuses formulas', async () => {
    expect(await render('csv')).toBe('id,name\n1,"Acme, Inc."\n2,"\'=HYPERLINK(""x"")"\n');
  });

  it('table shows headers and cells', async () => {
    const table = await render('table');
    for (const cell of ['id', 'name', 'Acme, Inc.']) expect(table).toContain(cell);
  });
});
