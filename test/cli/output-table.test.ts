import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { fieldsView, fitColumns, printData } from '../../src/cli/output.js';
import type { TableView } from '../../src/cli/output-format.js';
import { startProgress } from '../../src/cli/progress.js';

async function render(view: TableView, width?: number, format: 'table' | 'csv' = 'table'): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await printData(out, format, {}, () => view, { width });
  return Buffer.concat(chunks).toString('utf8');
}
const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const widest = (text: string) => Math.max(...lines(text).map((l) => stringWidth(l)));

const wide: TableView = {
  head: ['id', 'occurredAt', 'type', 'subject'],
  rows: [
    [
      '31251ba7-0000-0002-155c-0f0ca2e5d3a2',
      '2026-11-23T08:13:11.166Z',
      'x'.repeat(60),
      'Seaside Engineering GmbH',
    ],
    ['e2', '2026-11-23T08:13:12.000Z', 'platform.user.invited', '株式会社サンプル商事・東京本社営業部第二課'],
    ['e3', '2026-11-23T08:13:13.000Z', 'captcha.captcha.updated', '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂'],
  ],
};

describe('tables are cut to the terminal width, with an ellipsis', () => {
  it.each([40, 60, 80, 120])('every line fits %i columns (display width)', async (width) => {
    const text = await render(wide, width);
    expect(widest(text)).toBeLessThanOrEqual(width);
    expect(text).toContain('…');
  });

  it('full-width characters and emoji count as two columns', async () => {
    const text = await render(
      {
        head: ['k', 'v'],
        rows: [
          ['a', '界'.repeat(50)],
          ['b', '🙂'.repeat(50)],
        ],
      },
      40,
    );
    expect(widest(text)).toBeLessThanOrEqual(40);
    // Cut by display width, not by code points: about 16 wide characters fit, not 30.
    const kept = [...((lines(text)[3] as string).match(/界+/)?.[0] ?? '')].length;
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThan(20);
  });

  it('a table that fits is left whole; without a width nothing is cut', async () => {
    const small = fieldsView([['outcome', 'VALID']]);
    expect(await render(small, 80)).toBe(await render(small));
    expect(await render(wide)).not.toContain('…');
    expect(await render(wide)).toContain('x'.repeat(60));
  });

  it('narrow columns keep their width; only the widest are cut', () => {
    expect(fitColumns([10, 30, 60], 80)).toEqual([10, 30, 36]);
    expect(fitColumns([10, 40, 60], 80)).toEqual([10, 33, 33]);
    expect(fitColumns([10, 20], 80)).toBeUndefined();
  });

  it('escaped control characters are measured as shown', async () => {
    const text = await render(fieldsView([['title', '\x1b]0;pwned\x07'.repeat(20)]]), 50);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(widest(text)).toBeLessThanOrEqual(50);
  });
});

describe('CSV of a field list is one record', () => {
  it('header of field names, one row of values; CSV is not escaped for the terminal', async () => {
    const text = await render(
      fieldsView([
        ['outcome', 'VALID'],
        ['note', '=cmd\x1b[2J'],
      ]),
      undefined,
      'csv',
    );
    expect(text).toBe("outcome,note\nVALID,'=cmd\x1b[2J\n");
  });
});

describe('progress text is shown escaped', () => {
  it('a spinner text with escape sequences reaches the terminal as escapes', async () => {
    const stderr = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
    stderr.isTTY = true;
    stderr.columns = 80;
    // What ora calls on a terminal stream besides write.
    Object.assign(stderr, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    const chunks: Buffer[] = [];
    stderr.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    const io = { stderr, stderrIsTTY: true, columns: 80, env: { TERM: 'xterm' } } as unknown as CliIO;
    const progress = await startProgress(
      io,
      { quiet: false, colorAllowed: true },
      'reading \x1b]0;pwned\x07',
    );
    progress.stop();
    const shown = Buffer.concat(chunks).toString('utf8');
    expect(shown).toContain('reading \\x1b]0;pwned\\x07');
    expect(shown).not.toContain('\x1b]0;pwned');
  });
});
