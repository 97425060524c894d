import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RowOutput } from '../../src/node/batch-file/output/format.js';
import { OUTPUT_COLUMNS } from '../../src/node/batch-file/result-columns.js';
import { openWorkbook } from '../../src/node/batch-file/xlsx/open.js';
import { cellText } from '../../src/node/batch-file/xlsx/read.js';
import { writeWorkbook } from '../../src/node/batch-file/xlsx/write.js';
import { HEADER, hostileRow, inputCells, resultOf, wellFormed } from '../helpers/hostile-cells.js';
import { readTestWorkbook } from '../helpers/workbooks.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-workbook-cells-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The documented workbook replacement: U+FFFD for what XML 1.0 or exceljs cannot carry, `\n` line ends. */
function documentedWorkbookCell(text: string): string {
  return wellFormed(text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/g, '\uFFFD')).replace(
    /\r\n?/g,
    '\n',
  );
}

const holdsForbidden = (text: string) => documentedWorkbookCell(text) !== text.replace(/\r\n?/g, '\n');

/** Writes `rows` the way a run does (rows file, then the workbook) and returns the cells replaced. */
async function writeRows(
  rows: Array<{ companyName: string; note: string; message: string }>,
  header = HEADER,
) {
  const out = new RowOutput(header, 'rows');
  const rowsPath = join(dir, 'rows.ndjson');
  writeFileSync(rowsPath, rows.map((r, i) => out.line(resultOf(i + 1, r.message), inputCells(r))).join(''));
  return writeWorkbook(rowsPath, join(dir, 'out.xlsx'), header, 0o600);
}

/** The rows of the workbook as `svc batch` reads an input: header and cells. */
async function readWithProduct(): Promise<{ header: string[]; rows: string[][] }> {
  const table = await openWorkbook(join(dir, 'out.xlsx'), 'out.xlsx');
  const rows: string[][] = [];
  for await (const r of table.rows) rows.push(r.cells);
  return { header: table.header, rows };
}

describe('a batch row reads back from the workbook as written, forbidden characters as U+FFFD', () => {
  it('U+FFFE in a cell: the workbook opens in svc batch and exceljs, the cell is counted', async () => {
    const replaced = await writeRows([{ companyName: 'a\uFFFEb', note: 'ok', message: 'm\x01' }]);
    expect(replaced).toBe(2);
    const { rows } = await readWithProduct();
    expect(rows[0]?.slice(2, 4)).toEqual(['a\uFFFDb', 'ok']);
    expect(rows[0]?.at(-1)).toBe('m\uFFFD');
    const sheet = (await readTestWorkbook(join(dir, 'out.xlsx'))).worksheets[0] as ExcelJS.Worksheet;
    expect(cellText(sheet.getRow(2).getCell(3).value)).toBe('a\uFFFDb');
  });

  it('a header name with a forbidden character is replaced and counted too', async () => {
    expect(await writeRows([{ companyName: 'x', note: 'y', message: '' }], [...HEADER, 'bad\uFFFF'])).toBe(1);
    expect((await readWithProduct()).header.at(4)).toBe('bad\uFFFD');
  });

  it('for any cells (controls, bidi overrides, U+FFFE, lone surrogates), read by svc batch and exceljs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileRow, { minLength: 1, maxLength: 4 }), async (rows) => {
        const replaced = await writeRows(rows);
        expect(replaced).toBe(
          rows.flatMap((r) => [r.companyName, r.note, r.message]).filter(holdsForbidden).length,
        );
        const expected = rows.map((r) => [r.companyName, r.note, r.message].map(documentedWorkbookCell));
        const { header, rows: read } = await readWithProduct();
        expect(header).toEqual([...HEADER, ...OUTPUT_COLUMNS]);
        expect(read.map((cells) => [cells[2], cells[3], cells.at(-1)])).toEqual(expected);
        const sheet = (await readTestWorkbook(join(dir, 'out.xlsx'))).worksheets[0] as ExcelJS.Worksheet;
        const byExceljs = expected.map((_, i) => {
          const r = sheet.getRow(i + 2);
          return [3, 4, HEADER.length + OUTPUT_COLUMNS.length].map((c) => cellText(r.getCell(c).value));
        });
        expect(byExceljs).toEqual(expected);
      }),
      { numRuns: 40, seed: 35 },
    );
  }, 30_000);
});
