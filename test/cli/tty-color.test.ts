import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { PTY_UNAVAILABLE, runInPty } from '../helpers/pty.js';

// Issue 41 item 7: NO_COLOR (any non-empty value, no-color.org) and --no-color turn the
// spinner's colour off. ora guessed colour from stdout and never read NO_COLOR, so `NO_COLOR=1
// svc batch` drew a cyan spinner. The raw bytes of a real pseudo-terminal are checked.

/** Any SGR sequence (colour, bold...): `ESC [ ... m`. Cursor moves and ora's sync marks are not SGR. */
const SGR = /\x1b\[[0-9;]*m/;

let work: string;
let input: string;

beforeAll(() => {
  if (PTY_UNAVAILABLE) return;
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-tty-color-'));
  input = join(work, 'rows.csv');
  writeFileSync(input, makeCsv(200).text);
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The raw terminal bytes of a small `svc --sandbox batch` (its spinner shows from the start). */
async function batchOnTerminal(name: string, flags: string[], env: Record<string, string>) {
  const run = runInPty([...flags, '--sandbox', 'batch', input, '--out', join(work, `${name}.ndjson`)], {
    env,
    cwd: work,
  });
  try {
    const code = await run.exit;
    return { code, raw: run.raw(), text: run.text() };
  } finally {
    run.dispose();
  }
}

describe.skipIf(PTY_UNAVAILABLE)('the spinner honours NO_COLOR and --no-color', () => {
  it('without either, the spinner is coloured (so the checks below can fail)', async () => {
    const { code, raw, text } = await batchOnTerminal('plain', [], {});
    expect(code).toBe(0);
    expect(text).toContain('batch: ');
    expect(raw).toMatch(/\x1b\[36m/);
  }, 30_000);

  it('NO_COLOR=1: no SGR sequence in the bytes, the spinner still shows', async () => {
    const { code, raw, text } = await batchOnTerminal('no-color-env', [], { NO_COLOR: '1' });
    expect(code).toBe(0);
    expect(text).toContain('batch: starting');
    expect(raw).not.toMatch(SGR);
  }, 30_000);

  it('NO_COLOR with another non-empty value (no-color.org: any value)', async () => {
    const { code, raw } = await batchOnTerminal('no-color-word', [], { NO_COLOR: 'yes' });
    expect(code).toBe(0);
    expect(raw).not.toMatch(SGR);
  }, 30_000);

  it('--no-color: no SGR sequence', async () => {
    const { code, raw, text } = await batchOnTerminal('no-color-flag', ['--no-color'], {});
    expect(code).toBe(0);
    expect(text).toContain('batch: starting');
    expect(raw).not.toMatch(SGR);
  }, 30_000);

  it('an empty NO_COLOR leaves colour on (no-color.org: set and not empty)', async () => {
    const { code, raw } = await batchOnTerminal('empty', [], { NO_COLOR: '' });
    expect(code).toBe(0);
    expect(raw).toMatch(/\x1b\[36m/);
  }, 30_000);
});
