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
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe.skipIf(PTY_UNAVAILABLE)('tables fit an 80-column terminal', () => {
  it('svc --sandbox audit list -o table: every table line fits, long cells end in …', async () => {
    const { code, lines } = await onTerminal(['--sandbox', 'audit', 'list', '-o', 'table']);
    expect(code).toBe(0);
    const table = tableLines(lines);
    expect(table.length).toBeGreaterThan(4);
    // The id column is kept whole (38 with padding); the four others share the rest.
    expect(table[1]).toMatch(/│ id +│ occurr… │ type +│/);
    expect(table[3]).toMatch(new RegExp(`^│ ${UUID} │`));
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

  it('on a 44-column terminal the validate table keeps its ids whole', async () => {
    const { code, lines } = await onTerminal(['--sandbox', 'validate', 'DE', '136695976'], 44);
    expect(code).toBe(0);
    expect(lines.join('\n')).toMatch(new RegExp(`│ validationResultId +│ valres_${UUID} │`));
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

// Issue 41 item 7: at 40 columns every column was cut alike, so `valres_95045cd1…` could not be
// copied. Id columns (ID_COLUMNS in src/cli/output-contract.ts) are kept whole, as gh keeps its id
// column; the other columns are cut to make room. A table whose ids alone are wider than the
// terminal is wider than it (the terminal wraps the line; the id stays one piece of text).
describe.skipIf(PTY_UNAVAILABLE)('narrow terminals keep id columns whole and cut the others', () => {
  it('validate at 40 columns: both ids whole beside their names; at 200 nothing is cut', async () => {
    const narrow = await onTerminal(['--sandbox', 'validate', 'DE', '136695976'], 40);
    expect(narrow.code).toBe(0);
    const text = narrow.lines.join('\n');
    expect(text).toMatch(new RegExp(`│ validationResultId +│ valres_${UUID} │`));
    expect(text).toMatch(new RegExp(`│ validationRequestId │ valreq_${UUID} │`));
    // Field column 21, value column 45 (the id with padding), three borders.
    expect(narrow.widest).toBe(69);
    const wide = await onTerminal(['--sandbox', 'validate', 'DE', '136695976'], 200);
    expect(wide.lines.join('\n')).not.toContain('…');
    expect(wide.widest).toBeLessThanOrEqual(200);
  }, 30_000);

  it('audit list at 40 columns: every event id whole, the other columns cut; at 200 all whole', async () => {
    const narrow = await onTerminal(['--sandbox', 'audit', 'list', '-o', 'table', '--page-size', '5'], 40);
    expect(narrow.code).toBe(0);
    const rows = tableLines(narrow.lines).filter((l) => /^│ [0-9a-f]/.test(l));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row).toMatch(new RegExp(`^│ ${UUID} │ .…`));
    const wide = await onTerminal(['--sandbox', 'audit', 'list', '-o', 'table', '--page-size', '5'], 200);
    const wideTable = tableLines(wide.lines);
    expect(wideTable.join('\n')).not.toContain('…');
    expect(screenLines(wideTable.join('\n')).widest).toBeLessThanOrEqual(200);
  }, 30_000);

  it('schedules create and captcha result at 40 columns: the schedule and verification ids whole', async () => {
    const schedule = await onTerminal(
      ['--sandbox', 'schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'],
      40,
    );
    expect(schedule.code).toBe(0);
    expect(schedule.lines.join('\n')).toMatch(new RegExp(`│ scheduleId +│ sched_${UUID} │`));
    const captcha = await onTerminal(
      ['--sandbox', '--api-key', TEST_KEY, 'captcha', 'result', IDS.passed],
      40,
    );
    expect(captcha.code).toBe(0);
    expect(captcha.lines.join('\n')).toContain(`│ ${IDS.passed} │`);
  }, 30_000);
});
