import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-cli.js';
import { PTY_UNAVAILABLE, type PtyRun, runInPty } from '../helpers/pty.js';

// Issue 15 item 7: `svc config set api-key` on a terminal asks for the key with hidden input.
// Runs the built bin/svc.js under a real pseudo-terminal (test/helpers/pty.ts): what is typed
// goes through the terminal's line discipline, so an echo would show on the screen captured here.

const KEY = 'ak_typed_on_terminal_0123456789';
const PROMPT = /api-key for profile 'default' \(input hidden, Enter to save\): /;

let work: string;
const runs: PtyRun[] = [];

beforeAll(() => {
  if (PTY_UNAVAILABLE) return;
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-tty-config-'));
}, 180_000);
afterEach(() => {
  for (const run of runs.splice(0)) run.dispose();
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

let homes = 0;
function setKey(): { run: PtyRun; file: string } {
  const home = join(work, `home-${++homes}`);
  const run = runInPty(['config', 'set', 'api-key'], { env: { XDG_CONFIG_HOME: home } });
  runs.push(run);
  return { run, file: join(home, 'svc', 'config.json') };
}

describe.skipIf(PTY_UNAVAILABLE)('config set api-key on a terminal: hidden prompt, Enter saves', () => {
  it('the typed key never shows on the screen and lands in a 0600 config file', async () => {
    const { run, file } = setKey();
    await run.waitFor(PROMPT);
    run.type(`${KEY}\r`);
    expect(await run.exit).toBe(0);
    expect(run.raw()).not.toContain(KEY);
    // Not even a part of it beyond the masked form (ak_ + 4, ..., last 4).
    expect(run.raw()).not.toContain(KEY.slice(3, 12));
    expect(run.text()).toContain("Saved api-key = ak_type...6789 in profile 'default'");
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { 'api-key': KEY } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('line editing works while hidden: Backspace removes a typo', async () => {
    const { run, file } = setKey();
    await run.waitFor(PROMPT);
    run.type(`${KEY}XY\x7f\x7f\r`);
    expect(await run.exit).toBe(0);
    expect(run.raw()).not.toContain(KEY);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default['api-key']).toBe(KEY);
  });

  it('Enter alone saves nothing: exit 2, one line', async () => {
    const { run, file } = setKey();
    await run.waitFor(PROMPT);
    run.type('\r');
    expect(await run.exit).toBe(2);
    expect(run.text()).toContain('svc: api-key must not be empty');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain('api-key');
  });

  it('Ctrl-C at the prompt saves nothing and exits 130, as an interrupt does elsewhere', async () => {
    const { run, file } = setKey();
    await run.waitFor(PROMPT);
    run.type('ak_half');
    run.type('\x03');
    expect(await run.exit).toBe(130);
    expect(run.raw()).not.toContain('ak_half');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain('ak_half');
  });
});
