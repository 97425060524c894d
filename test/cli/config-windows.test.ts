import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

// Issue 36: on Windows the config file lives where Windows programs keep theirs (%APPDATA%), a
// file an earlier version wrote to ~/.config is still read, and file modes (which Windows does
// not apply: every file reads back 0666) are neither enforced nor warned about. In-process runs
// with the platform injected; the Wine suite runs the same under Windows Node.

const server = useReferenceServer();
let appData: string;
let xdg: string;

beforeEach(() => {
  const work = mkdtempSync(join(tmpdir(), 'svc-config-windows-'));
  appData = join(work, 'AppData', 'Roaming');
  xdg = join(work, 'dot-config');
  mkdirSync(appData, { recursive: true });
});

const windows = (
  args: string[],
  options: { stdin?: string; env?: Record<string, string | undefined> } = {},
) =>
  runSvc(args, {
    platform: 'win32',
    env: { APPDATA: appData, XDG_CONFIG_HOME: xdg, ...options.env },
    stdin: options.stdin,
  });

function writeProfile(dir: string, key: string, mode = 0o600): string {
  mkdirSync(join(dir, 'svc'), { recursive: true });
  const file = join(dir, 'svc', 'config.json');
  writeFileSync(file, JSON.stringify({ profiles: { default: { 'api-key': key } } }), { mode });
  chmodSync(file, mode);
  return file;
}

const validate = () => ['--base-url', server().url, '-o', 'json', 'validate', 'DE', '136695976'];

describe('on Windows the config file is %APPDATA%\\svc\\config.json', () => {
  it('`config path` names it; on Linux the same variables give $XDG_CONFIG_HOME/svc/config.json', async () => {
    expect(await windows(['config', 'path'])).toMatchObject({
      code: 0,
      stdout: `${join(appData, 'svc', 'config.json')}\n`,
    });
    const linux = await runSvc(['config', 'path'], {
      platform: 'linux',
      env: { APPDATA: appData, XDG_CONFIG_HOME: xdg },
    });
    expect(linux.stdout).toBe(`${join(xdg, 'svc', 'config.json')}\n`);
  });

  it('`config set api-key` writes there, and the next call uses the key', async () => {
    const set = await windows(['config', 'set', 'api-key'], { stdin: 'ak_demo_project\r\n' });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(
      /^Saved api-key = ak_\.\.\. in profile 'default' \(.*AppData.Roaming.svc.config\.json\)\n$/,
    );
    const file = join(appData, 'svc', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { 'api-key': 'ak_demo_project' } },
    });
    expect(existsSync(join(xdg, 'svc'))).toBe(false);
    const run = await windows(validate());
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'VALID' });
  });

  it('without APPDATA (not a Windows login), the Unix place is used', async () => {
    const run = await windows(['config', 'path'], { env: { APPDATA: undefined } });
    expect(run.stdout).toBe(`${join(xdg, 'svc', 'config.json')}\n`);
  });
});

describe('an existing ~/.config/svc/config.json is still read on Windows until %APPDATA% holds one', () => {
  it('the old file alone is used (read and written), so no profile is lost by an upgrade', async () => {
    const old = writeProfile(xdg, 'ak_demo_project');
    expect((await windows(['config', 'path'])).stdout).toBe(`${old}\n`);
    const run = await windows(validate());
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'VALID' });
    await windows(['config', 'set', 'timeout', '5000']);
    expect(JSON.parse(readFileSync(old, 'utf8')).profiles.default.timeout).toBe('5000');
    expect(existsSync(join(appData, 'svc', 'config.json'))).toBe(false);
  });

  it('when both exist, %APPDATA% wins', async () => {
    writeProfile(xdg, 'ak_expired_key');
    const current = writeProfile(appData, 'ak_demo_project');
    expect((await windows(['config', 'path'])).stdout).toBe(`${current}\n`);
    const run = await windows(validate());
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'VALID' });
  });
});

describe('file modes are not enforced on Windows: a config file reading back 0666 gives no warning', () => {
  it('win32: no warning, the mode left as Windows reports it; Linux: tightened with a warning', async () => {
    const file = writeProfile(appData, 'ak_demo_project', 0o666);
    for (let n = 0; n < 3; n++) {
      const run = await windows(validate());
      expect(run).toMatchObject({ code: 0, stderr: '' });
    }
    expect(statSync(file).mode & 0o777).toBe(0o666);
    const set = await windows(['config', 'set', 'output', 'json']);
    expect(set.stderr).toMatch(/^Saved output = json in profile 'default' \([^\n]+\)\n$/);

    writeProfile(xdg, 'ak_demo_project', 0o666);
    const linux = await runSvc(validate(), { platform: 'linux', env: { XDG_CONFIG_HOME: xdg } });
    expect(linux.code).toBe(0);
    expect(linux.stderr).toMatch(/config file \S+ was open to other users \(mode 0666\); changed to 0600/);
  });
});

describe('help promises mode 0600 only where it applies', () => {
  it('config --help and batch --help name Linux/macOS beside every 0600 and say what holds on Windows', async () => {
    for (const args of [
      ['config', '--help'],
      ['batch', '--help'],
      ['audit', 'export', '--help'],
    ]) {
      const run = await runSvc(args);
      const text = `${run.stdout}${run.stderr}`.replace(/\s+/g, ' ');
      const promises = [...text.matchAll(/[^.;(]*\b0?600\b[^.;)]*/g)].map((m) => m[0]);
      expect(promises.length, args.join(' ')).toBeGreaterThan(0);
      for (const promise of promises) expect(promise, args.join(' ')).toMatch(/Linux\/macOS/);
      expect(text, args.join(' ')).toMatch(/Windows/);
    }
  });
});
