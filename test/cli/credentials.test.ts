import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';
import { lines, runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';

// Issue 15 item 7: credentials. An unknown profile is an error listing the real ones; a command
// that needs a key and has none stops before sending; keys lose surrounding white space; piped
// stdin still feeds `config set api-key` (the terminal prompt is in tty-config.test.ts).

const server = useReferenceServer();
const UUID = '0b6f3c52-1d2e-4c3b-9a8f-7e6d5c4b3a21';

let work: string;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-credentials-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeEach(() => {
  home = mkdtempSync(join(work, 'home-'));
  env = { XDG_CONFIG_HOME: home };
});

const file = () => join(home, 'svc', 'config.json');
function writeProfiles(profiles: Record<string, Record<string, string>>): void {
  mkdirSync(join(home, 'svc'), { recursive: true, mode: 0o700 });
  writeFileSync(file(), JSON.stringify({ profiles }), { mode: 0o600 });
}
const sent = () => server().admin.requests().length;
const validateArgs = ['validate', 'DE', '136695976', '-o', 'json'];

describe('a profile asked for that does not exist is an error listing the profiles (exit 2)', () => {
  beforeEach(() => writeProfiles({ default: { 'api-key': DEMO.projectKey }, ci: { output: 'json' } }));

  for (const [how, args, extra] of [
    ['--profile nope', ['--profile', 'nope'], {}],
    ['SVC_PROFILE=nope', [], { SVC_PROFILE: 'nope' }],
    ['--profile constructor (not a property of every object)', ['--profile', 'constructor'], {}],
  ] as const) {
    it(how, async () => {
      const before = sent();
      const run = await runBin([...args, '--base-url', server().url, ...validateArgs], {
        env: { ...env, ...extra },
      });
      expect(run.code).toBe(2);
      const name = how.includes('constructor') ? 'constructor' : 'nope';
      expect(lines(run.stderr)).toEqual([
        `svc: profile '${name}' does not exist; profiles in ${file()}: 'ci', 'default'`,
      ]);
      expect(sent()).toBe(before);
    });
  }

  it('--profile default must exist too when there is a config file', async () => {
    writeProfiles({ ci: { 'api-key': DEMO.projectKey } });
    const run = await runSvc(['--profile', 'default', '--base-url', server().url, ...validateArgs], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("profile 'default' does not exist; profiles in");
  });

  it('the implicit default profile may be missing: flags and env are enough', async () => {
    writeProfiles({ ci: { output: 'json' } });
    const run = await runSvc(['--base-url', server().url, '--api-key', DEMO.projectKey, ...validateArgs], {
      env,
    });
    expect(run.code).toBe(0);
  });
});

describe('without a config file, only `default` may be named', () => {
  it('--profile default: fine', async () => {
    const run = await runBin(
      ['--profile', 'default', '--base-url', server().url, '--api-key', DEMO.projectKey, ...validateArgs],
      { env },
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
  });

  it('--profile nope: exit 2, says there is no config file and how to create the profile', async () => {
    const run = await runBin(['--profile', 'nope', '--base-url', server().url, ...validateArgs], { env });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `svc: profile 'nope' does not exist: there is no config file (${file()}); create it with \`svc --profile nope config set api-key\``,
    ]);
  });
});

describe('a command that needs a key and has none stops before sending: exit 2, one line with the hint', () => {
  for (const [api, args] of [
    ['tax-validation', validateArgs],
    ['tax-validation', ['results', 'get', 'valres_x']],
    ['tax-validation', ['schedules', 'delete', 'sched_x']],
    ['audit', ['audit', 'list']],
    ['bot-check', ['captcha', 'result', UUID]],
    ['legacy bot-check', ['captcha', 'legacy', UUID]],
  ] as const) {
    it(`${args.slice(0, 2).join(' ')} (${api} API)`, async () => {
      const before = sent();
      const run = await runBin(['--base-url', server().url, ...args], { env });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(`svc: no API key for the ${api} API, so nothing was sent`);
      expect(run.stderr).toContain('svc config set api-key');
      expect(run.stderr).toContain('SVC_API_KEY');
      expect(sent()).toBe(before);
    });
  }

  it('webhooks listen --confirm (which calls the API only when an event comes): refused at start', async () => {
    const run = await runSvc(
      ['--base-url', server().url, 'webhooks', 'listen', '--confirm', '--port', '0', '--max-events', '1'],
      { env },
    );
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain('no API key for the tax-validation API');
  });

  it('names the profile in use when it is not the default', async () => {
    writeProfiles({ ci: { output: 'json' } });
    const run = await runSvc(['--profile', 'ci', '--base-url', server().url, 'audit', 'list'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no API key for the audit API in profile 'ci'");
    expect(run.stderr).toContain('audit-api-key / SVC_AUDIT_API_KEY');
  });
});

describe("an API's own key counts for that API only", () => {
  it('SVC_AUDIT_API_KEY: audit list runs, validate stops asking for a key', async () => {
    const keyed = { ...env, SVC_BASE_URL: server().url, SVC_AUDIT_API_KEY: DEMO.projectKey };
    const audit = await runBin(['audit', 'list', '--page-size', '1', '-o', 'json'], { env: keyed });
    expect(audit.code).toBe(0);
    const tax = await runBin(validateArgs, { env: keyed });
    expect(tax.code).toBe(2);
    expect(tax.stderr).toContain('no API key for the tax-validation API');
  });

  it('captcha-api-key in the profile: captcha result is sent (the server answers), validate is not', async () => {
    writeProfiles({ default: { 'base-url': server().url, 'captcha-api-key': DEMO.projectKey } });
    const before = sent();
    const captcha = await runSvc(['captcha', 'result', UUID], { env });
    expect(captcha.stderr).not.toContain('no API key');
    expect(sent()).toBe(before + 1);
    expect((await runSvc(validateArgs, { env })).code).toBe(2);
  });

  it('the legacy API with a (deprecated) access token and no key is sent', async () => {
    const before = sent();
    const run = await runSvc(
      ['--base-url', server().url, 'captcha', 'legacy', UUID, '--access-token', 'tok_1234567890'],
      { env },
    );
    expect(run.stderr).not.toContain('no API key');
    expect(sent()).toBe(before + 1);
  });
});

describe('commands that need no key run without one', () => {
  for (const args of [
    ['--sandbox', ...validateArgs],
    ['precheck', 'DE', '136695976', '-o', 'json'],
    ['openapi'],
    ['completion', 'bash'],
    ['version'],
    ['config', 'list', '-o', 'json'],
  ]) {
    it(args.join(' '), async () => {
      const run = await runSvc(args, { env });
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain('no API key');
    });
  }

  it('token decode: its own verdict, not a key error', async () => {
    const run = await runSvc(['token', 'decode', 'not-a-token'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid verification token');
  });

  it('doctor reports the missing key per API itself (exit 1, no usage error)', async () => {
    const run = await runSvc(['--base-url', server().url, 'doctor', '-o', 'json'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('no API key for');
    const report = JSON.parse(run.stdout) as { apis: Array<{ keyConfigured: boolean }> };
    expect(report.apis.map((a) => a.keyConfigured)).toEqual([false, false, false, false]);
  });
});

describe('a key from the environment or a file loses surrounding white space (CR/LF), nothing else', () => {
  for (const [what, key] of [
    ['trailing LF', `${DEMO.projectKey}\n`],
    ['trailing CR LF', `${DEMO.projectKey}\r\n`],
    ['spaces and a tab around', ` \t${DEMO.projectKey} `],
  ] as const) {
    it(`SVC_API_KEY with ${what}`, async () => {
      const run = await runBin(validateArgs, {
        env: { ...env, SVC_BASE_URL: server().url, SVC_API_KEY: key },
      });
      expect(run).toMatchObject({ code: 0, stderr: '' });
    });

    it(`api-key in the profile file with ${what}`, async () => {
      writeProfiles({ default: { 'base-url': server().url, 'api-key': key } });
      const run = await runBin(validateArgs, { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
    });
  }

  it('white space inside a key is still refused locally (exit 2, nothing sent, key not shown)', async () => {
    const before = sent();
    const run = await runBin(validateArgs, {
      env: { ...env, SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo\r\nproject' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('ak_demo');
    expect(sent()).toBe(before);
  });

  it('a key of white space only counts as no key', async () => {
    const run = await runBin(validateArgs, {
      env: { ...env, SVC_BASE_URL: server().url, SVC_API_KEY: ' \n' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key');
  });
});

describe('svc config set api-key still reads piped stdin', () => {
  it('a key piped with CR/LF is stored trimmed in a 0600 file, and used', async () => {
    const set = await runBin(['config', 'set', 'api-key'], { env, input: `${DEMO.projectKey}\r\n` });
    expect(set.code).toBe(0);
    expect(set.stdout + set.stderr).not.toContain(DEMO.projectKey);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({
      profiles: { default: { 'api-key': DEMO.projectKey } },
    });
    if (process.platform !== 'win32') expect(statSync(file()).mode & 0o777).toBe(0o600);
    const run = await runBin(['--base-url', server().url, ...validateArgs], { env });
    expect(run.code).toBe(0);
  });
});
