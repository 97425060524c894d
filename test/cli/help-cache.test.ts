import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { PTY_UNAVAILABLE, plain, runInPty } from '../helpers/pty.js';
import { runBin } from '../helpers/run-bin.js';

// A copy of the package whose dist/cli has no help.txt: bin/svc.js must render the help itself.
let uncached: string;

beforeAll(() => {
  ensureBuilt();
  uncached = mkdtempSync(join(tmpdir(), 'svc-help-cache-'));
  mkdirSync(join(uncached, 'bin'));
  mkdirSync(join(uncached, 'dist', 'cli'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'svc.js'), join(uncached, 'bin', 'svc.js'));
  copyFileSync(join(ROOT, 'package.json'), join(uncached, 'package.json'));
  for (const name of readdirSync(join(ROOT, 'dist', 'cli'))) {
    if (name !== 'help.txt')
      symlinkSync(join(ROOT, 'dist', 'cli', name), join(uncached, 'dist', 'cli', name));
  }
}, 180_000);
afterAll(() => {
  if (uncached) rmSync(uncached, { recursive: true, force: true });
});

/** `node <copy>/bin/svc.js ...args`, the copy without a help cache. */
function runUncached(args: string[]) {
  return runBin(args, { bin: join(uncached, 'bin', 'svc.js') });
}

describe('svc --help into a pipe is the help the CLI renders from its definitions, without loading it', () => {
  it('bin/svc.js --help and -h print exactly what the CLI itself prints, exit 0', async () => {
    // The copied bin/svc.js finds no dist/cli/help.txt next to it: commander renders the help.
    const live = await runUncached(['--help']);
    expect(live).toMatchObject({ code: 0, stderr: '' });
    expect(live.stdout).toMatch(/^Usage: svc \[options\] \[command\]/);
    for (const flag of ['--help', '-h']) {
      const cached = await runBin([flag]);
      expect(cached).toMatchObject({ code: 0, stderr: '' });
      expect(cached.stdout).toBe(live.stdout);
    }
  });

  it('anything more than the bare flag goes to the CLI (subcommand help, unknown options)', async () => {
    const sub = await runBin(['audit', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^Usage: svc audit/);
    const bad = await runBin(['--help', '--nope']);
    const badUncached = await runUncached(['--help', '--nope']);
    expect(bad).toEqual(badUncached);
  });
});

describe('svc --help on a terminal is rendered for its width (the cached help only at 80 columns)', () => {
  it.skipIf(PTY_UNAVAILABLE)(
    `80 columns: the same help as into a pipe (${PTY_UNAVAILABLE ?? 'pty available'})`,
    async () => {
      const run = runInPty(['--help'], { columns: 80 });
      try {
        expect(await run.exit).toBe(0);
        const piped = await runUncached(['--help']);
        expect(run.text().replace(/\r\n/g, '\n')).toContain(piped.stdout);
      } finally {
        run.dispose();
      }
    },
    60_000,
  );

  it.skipIf(PTY_UNAVAILABLE)(
    `wraps to 120 columns (${PTY_UNAVAILABLE ?? 'pty available'})`,
    async () => {
      const run = runInPty(['--help'], { columns: 120 });
      try {
        expect(await run.exit).toBe(0);
        const shown = plain(run.text()).split(/\r?\n/);
        expect(shown.some((line) => line.startsWith('Usage: svc'))).toBe(true);
        // The option and command lists wrap at the terminal's width (the examples are never wrapped).
        const lists = shown.slice(0, shown.indexOf('Examples:'));
        const widest = Math.max(...lists.map((line) => line.length));
        expect(widest).toBeLessThanOrEqual(120);
        // The help cached for pipes is wrapped at 80: a wider line shows this one was not it.
        expect(widest).toBeGreaterThan(80);
      } finally {
        run.dispose();
      }
    },
    60_000,
  );
});
