import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';
import { lines, runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';

// Issue 14 item 10: the config file. A broken file is named and skipped when flags and env
// suffice; a base URL with a password is refused without repeating it; a file (or folder) open to
// other users is tightened with a warning. Runs of the built bin/svc.js, plus in-process ones.

const server = useReferenceServer();
const SECRET = 'ak_secret_in_broken_file_0123456789';
const PASSWORD = 's3cr3t-Pa55';

let work: string;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-config-file-'));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeEach(() => {
  home = mkdtempSync(join(work, 'home-'));
  env = { XDG_CONFIG_HOME: home };
});

const dir = () => join(home, 'svc');
const file = () => join(dir(), 'config.json');
function writeConfig(text: string, mode = 0o600): void {
  mkdirSync(dir(), { recursive: true, mode: 0o700 });
  writeFileSync(file(), text, { mode });
  chmodSync(file(), mode);
}
const modeOf = (path: string) => statSync(path).mode & 0o777;
const validateArgs = ['validate', 'DE', '136695976', '-o', 'json'];

const BROKEN: ReadonlyArray<[string, string]> = [
  ['cut short (not JSON)', `{"profiles": {"default": {"api-key": "${SECRET}"`],
  ['an array', `[{"api-key": "${SECRET}"}]`],
  ['profiles not an object', `{"profiles": "${SECRET}"}`],
  ['a setting that is not a string', `{"profiles": {"default": {"api-key": ["${SECRET}"], "timeout": 5}}}`],
];

describe('a broken config file is named in one warning and skipped when flags and env suffice', () => {
  for (const [what, text] of BROKEN) {
    it(`${what}: flags give base URL and key, the run succeeds with one warning naming the file`, async () => {
      writeConfig(text);
      const run = await runBin(['--base-url', server().url, '--api-key', DEMO.projectKey, ...validateArgs], {
        env,
      });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ input: { countryCode: 'DE' } });
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toMatch(/^warning: ignoring config file /);
      expect(run.stderr).toContain(file());
      expect(run.stderr).toContain('svc config path');
      expect(run.stderr).not.toContain(SECRET);
      expect(readFileSync(file(), 'utf8')).toBe(text);
    });
  }

  it('config.json that is a folder: skipped with a warning, its mode left alone', async () => {
    mkdirSync(file(), { recursive: true, mode: 0o755 });
    chmodSync(file(), 0o755);
    const run = await runSvc(['--base-url', server().url, '--api-key', DEMO.projectKey, ...validateArgs], {
      env,
    });
    expect(run.code).toBe(0);
    expect(lines(run.stderr)).toEqual([
      expect.stringContaining(`ignoring config file ${file()}: it cannot be read (EISDIR)`),
    ]);
    expect(modeOf(file())).toBe(0o755);
  });

  it('env gives base URL and key: same', async () => {
    writeConfig(BROKEN[0]?.[1] ?? '');
    const run = await runBin(validateArgs, {
      env: { ...env, SVC_BASE_URL: server().url, SVC_API_KEY: DEMO.projectKey },
    });
    expect(run.code).toBe(0);
    expect(lines(run.stderr)).toEqual([expect.stringContaining(`ignoring config file ${file()}`)]);
  });

  it('--sandbox needs nothing from the file: same', async () => {
    writeConfig(BROKEN[0]?.[1] ?? '');
    const run = await runBin(['--sandbox', ...validateArgs], { env });
    expect(run.code).toBe(0);
    expect(lines(run.stderr)).toEqual([expect.stringContaining(`ignoring config file ${file()}`)]);
  });
});

describe('when flags and env do not suffice, the one error line names the broken file and the fix', () => {
  it('no base URL: exit 2, one line naming the file, nothing of its content', async () => {
    writeConfig(BROKEN[0]?.[1] ?? '');
    const run = await runBin(validateArgs, { env: { ...env, SVC_API_KEY: DEMO.projectKey } });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^svc: no base URL/);
    expect(run.stderr).toContain(`config file ${file()} is not valid JSON`);
    expect(run.stderr).toContain('move it away');
    expect(run.stderr).toContain('svc config path');
    expect(run.stderr).not.toContain(SECRET);
  });

  it('no key: exit 2, one line naming the file, and nothing is sent', async () => {
    writeConfig(BROKEN[0]?.[1] ?? '');
    const before = server().admin.requests().length;
    const run = await runBin(['--base-url', server().url, ...validateArgs], { env });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^svc: no API key/);
    expect(run.stderr).toContain(`config file ${file()} is not valid JSON`);
    expect(server().admin.requests().length).toBe(before);
  });

  it('a profile asked for by name cannot come from a broken file: exit 2 naming the file', async () => {
    writeConfig(BROKEN[0]?.[1] ?? '');
    const run = await runBin(
      ['--profile', 'ci', '--base-url', server().url, '--api-key', DEMO.projectKey, ...validateArgs],
      { env },
    );
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `svc: config file ${file()} is not valid JSON: fix it, or move it away (\`svc config path\` prints where it is)`,
    ]);
  });

  it('svc config set/get/list refuse with that line and leave the file as it was; config path still works', async () => {
    const text = BROKEN[0]?.[1] ?? '';
    writeConfig(text);
    for (const args of [
      ['config', 'set', 'output', 'json'],
      ['config', 'get', 'api-key'],
      ['config', 'list'],
    ]) {
      const run = await runSvc(args, { env });
      expect(run.code, args.join(' ')).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(file());
      expect(run.stderr + run.stdout).not.toContain(SECRET);
    }
    expect(readFileSync(file(), 'utf8')).toBe(text);
    const path = await runBin(['config', 'path'], { env });
    expect(path).toMatchObject({ code: 0, stdout: `${file()}\n`, stderr: '' });
  });
});

describe('config set base-url refuses a user name or password in the URL, without repeating it', () => {
  for (const url of [
    `http://user:${PASSWORD}@127.0.0.1:4010`,
    `https://${PASSWORD}@api.example.com/`,
    `http://user:${PASSWORD}@[not-a-host`,
  ]) {
    it(url.replace(PASSWORD, '***'), async () => {
      const run = await runBin(['config', 'set', 'base-url', url], { env });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
      expect(existsSync(file()) ? readFileSync(file(), 'utf8') : '').not.toContain(PASSWORD);
    });
  }

  it('a URL with credentials already in the file (written by hand) is shown without them', async () => {
    writeConfig(
      JSON.stringify({ profiles: { default: { 'base-url': `http://u:${PASSWORD}@127.0.0.1:9/` } } }),
    );
    const get = await runSvc(['config', 'get', 'base-url'], { env });
    expect(get).toMatchObject({ code: 0, stdout: 'http://***@127.0.0.1:9/\n' });
    const list = await runSvc(['config', 'list', '-o', 'json'], { env });
    expect(list.stdout).not.toContain(PASSWORD);
    // And the client refuses to use it, without repeating it.
    const run = await runBin(['--api-key', DEMO.projectKey, ...validateArgs], { env });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it('a plain URL is still saved and shown', async () => {
    const run = await runSvc(['config', 'set', 'base-url', 'https://api.example.com'], { env });
    expect(run.code).toBe(0);
    expect((await runSvc(['config', 'get', 'base-url'], { env })).stdout).toBe('https://api.example.com\n');
  });
});

describe.skipIf(process.platform === 'win32')(
  'a config file more open than 0600 (folder 0700) is tightened with a one-line warning each',
  () => {
    const profile = JSON.stringify({ profiles: { default: { 'api-key': DEMO.projectKey } } });

    it('a run that reads the file: 0644 -> 0600, 0755 -> 0700, and the run goes on', async () => {
      writeConfig(profile, 0o644);
      chmodSync(dir(), 0o755);
      const run = await runBin(['--base-url', server().url, ...validateArgs], { env });
      expect(run.code).toBe(0);
      expect(lines(run.stderr)).toEqual([
        `warning: config folder ${dir()} was open to other users (mode 0755); changed to 0700`,
        `warning: config file ${file()} was open to other users (mode 0644); changed to 0600`,
      ]);
      expect(modeOf(file())).toBe(0o600);
      expect(modeOf(dir())).toBe(0o700);
    });

    it('svc config commands too (0640 file, 0750 folder)', async () => {
      writeConfig(profile, 0o640);
      chmodSync(dir(), 0o750);
      const run = await runSvc(['config', 'get', 'api-key'], { env });
      expect(run.code).toBe(0);
      expect(lines(run.stderr)).toHaveLength(2);
      expect(run.stderr).toContain('(mode 0640); changed to 0600');
      expect(modeOf(file())).toBe(0o600);
      expect(modeOf(dir())).toBe(0o700);
    });

    it('no warning when the modes are already 0600 and 0700', async () => {
      writeConfig(profile, 0o600);
      const run = await runBin(['--base-url', server().url, ...validateArgs], { env });
      expect(run).toMatchObject({ code: 0, stderr: '' });
    });

    it('config set writes a new file 0600 in a 0700 folder', async () => {
      const run = await runSvc(['config', 'set', 'output', 'json'], { env });
      expect(run.code).toBe(0);
      expect(modeOf(file())).toBe(0o600);
      expect(modeOf(dir())).toBe(0o700);
    });
  },
);
