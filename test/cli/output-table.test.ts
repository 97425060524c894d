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

// `ref` is not an id column (ID_COLUMNS): every column may be cut.
const wide: TableView = {
  head: ['ref', 'occurredAt', 'type', 'subject'],
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

const EVENT_ID = '31251ba7-0000-0002-155c-0f0ca2e5d3a2';
const RESULT_ID = 'valres_95045cd1-2a4b-4c6d-8e9f-000000000000';

describe('id columns (ID_COLUMNS in the output contract) are never cut; the other columns make room', () => {
  const events: TableView = { ...wide, head: ['id', ...wide.head.slice(1)] };

  it.each([40, 60, 80])('a column headed id keeps every id whole at %i columns', async (width) => {
    const text = await render(events, width);
    expect(text).toContain(`│ ${EVENT_ID} │`);
    expect(text).toContain('…');
    // The id column (38 with padding) and four borders and three cut columns of 4: 54 at most.
    expect(widest(text)).toBeLessThanOrEqual(Math.max(width, 38 + 5 + 3 * 4));
  });

  it('the same values under a header that is not an id are cut: the header decides, not the value', async () => {
    const text = await render(wide, 40);
    expect(text).not.toContain(EVENT_ID);
    expect(widest(text)).toBeLessThanOrEqual(40);
  });

  it('a one-object table keeps each id and its field name whole; other values are cut', async () => {
    const view = fieldsView([
      ['outcome', 'VALID'],
      ['companyName', 'Seaside Engineering GmbH und Söhne Maschinenbau Aktiengesellschaft'],
      ['validationResultId', RESULT_ID],
      ['checkedAt', '2026-12-02T04:50:29.327Z'],
    ]);
    for (const width of [40, 60]) {
      const text = await render(view, width);
      expect(text).toMatch(new RegExp(`│ validationResultId +│ ${RESULT_ID} +│`));
      expect(text).toContain('Seaside Engineering');
      expect(text).not.toContain('Aktiengesellschaft');
      // Field column 20 and value column 45 (the id), three borders: 68, wider than 40 or 60.
      expect(widest(text)).toBe(68);
    }
    const roomy = await render(view, 200);
    expect(roomy).toContain('Aktiengesellschaft');
    expect(widest(roomy)).toBeLessThanOrEqual(200);
  });

  it('fitColumns keeps a floor and cuts the others to one limit', () => {
    expect(fitColumns([38, 26, 62, 26], 80, [38])).toEqual([38, 12, 12, 12]);
    expect(fitColumns([38, 26, 62, 26], 40, [38])).toEqual([38, 4, 4, 4]);
    expect(fitColumns([38, 26, 62, 26], 200, [38])).toBeUndefined();
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
