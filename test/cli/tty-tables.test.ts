import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { PTY_UNAVAILABLE, runInPty, screenLines } from '../helpers/pty.js';

// Tables on a real pseudo-terminal: `svc` sees a terminal on stdout, picks `table` by default and
// cuts cells to the terminal's width (see src/cli/output.ts), as gh does.

beforeAll(() => {
  if (!PTY_UNAVAILABLE) ensureBuilt();
}, 180_000);

async function onTerminal(
  args: string[],
  columns = 80,
): Promise<{ code: number; lines: string[]; widest: number }> {
  const run = runInPty(args, { columns });
  try {
    const code = await run.exit;
    return { code, ...screenLines(run.text()) };
  } finally {
    run.dispose();
  }
}

const tableLines = (lines: string[]) => lines.filter((l) => /^[┌│├└]/.test(l));

describe.skipIf(PTY_UNAVAILABLE)('tables fit an 80-column terminal', () => {
  it('svc --sandbox audit list -o table: every table line fits, long cells end in …', async () => {
    const { code, lines } = await onTerminal(['--sandbox', 'audit', 'list', '-o', 'table']);
    expect(code).toBe(0);
    const table = tableLines(lines);
    expect(table.length).toBeGreaterThan(4);
    expect(table[1]).toMatch(/│ id +│ occurredAt +│ type/);
    expect(table.join('\n')).toContain('…');
    // The paging line on stderr is prose (with a cursor of any length) that the terminal wraps.
    const rest = lines.filter((l) => !/^page \d+:/.test(l));
    expect(screenLines(rest.join('\n')).widest).toBeLessThanOrEqual(80);
  }, 30_000);

  it('svc --sandbox validate DE 136695976: a table by default, every line fits', async () => {
    const { code, lines, widest } = await onTerminal(['--sandbox', 'validate', 'DE', '136695976']);
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(/│ outcome +│ VALID +│/);
    expect(widest).toBeLessThanOrEqual(80);
  }, 30_000);

  it('svc --sandbox captcha result <test id> with the test key: every line fits', async () => {
    const { code, lines, widest } = await onTerminal([
      '--sandbox',
      '--api-key',
      TEST_KEY,
      'captcha',
      'result',
      IDS.passed,
    ]);
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(/│ decision +│ ACCEPT +│/);
    expect(widest).toBeLessThanOrEqual(80);
  }, 30_000);

  it('on a 44-column terminal the validate table is cut to fit, not wrapped', async () => {
    const { code, lines, widest } = await onTerminal(['--sandbox', 'validate', 'DE', '136695976'], 44);
    expect(code).toBe(0);
    expect(widest).toBeLessThanOrEqual(44);
    expect(lines.join('\n')).toMatch(/│ validationResultId +│ valres_.*… │/);
  }, 30_000);

  it('full-width characters and emoji count as two columns when cells are cut', async () => {
    const wide = `株式会社サンプル商事東京本社営業部第二課${'🙂'.repeat(8)}`;
    const { lines } = await onTerminal(['precheck', 'DE', wide], 40);
    const table = tableLines(lines);
    expect(table.join('\n')).toMatch(/│ normalized +│ 株式会社.*… +│/);
    // screenLines counts code points; a terminal shows each of these characters two columns wide.
    expect(Math.max(...table.map((l) => stringWidth(l)))).toBeLessThanOrEqual(40);
    expect(Math.max(...table.map((l) => stringWidth(l)))).toBeGreaterThan(30);
  }, 30_000);

  it('a format a command does not print is refused on the terminal too: one line, exit 2', async () => {
    const { code, lines } = await onTerminal(['--sandbox', 'batch', '-', '-o', 'table']);
    expect(code).toBe(2);
    expect(lines.filter((l) => l.trim() !== '' && !l.startsWith('svc-pty'))).toEqual([
      'svc: svc batch does not print table; -o must be one of ndjson, csv',
    ]);
  }, 30_000);
});
