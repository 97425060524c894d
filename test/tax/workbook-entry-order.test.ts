import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InputTable } from '../../src/node/batch-file/table.js';
import { openWorkbook } from '../../src/node/batch-file/xlsx/open.js';
import { reordered, twoSheetWorkbook, writeTestWorkbook, writeZip } from '../helpers/workbooks.js';

// Issue 36: exceljs' streaming reader names a sheet from workbook.xml and its relationships, and
// parses a sheet at once when the shared strings were read before it. A sheet stored after the
// shared strings but before workbook.xml therefore failed on every read ("Cannot read properties
// of undefined (reading 'sheets')"), and under Windows Node a slow temporary copy of a sheet let
// unzipper end the archive before its last entries (workbook.xml among them) were taken.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-entry-order-'));
});

async function allRows(table: InputTable): Promise<string[][]> {
  const rows = [table.header];
  for await (const row of table.rows) rows.push(row.cells);
  return rows;
}

const KUNDEN = [
  ['Land', 'USt-IdNr'],
  ['DE', 'DE10000000'],
  ['DE', 'DE10000001'],
  ['DE', 'DE10000002'],
];
const LIEFERANTEN = [
  ['Land', 'USt-IdNr'],
  ['AT', 'ATU0'],
  ['AT', 'ATU1'],
  ['AT', 'ATU2'],
];

const ORDERS: Record<string, string[]> = {
  "Excel's (workbook.xml first, shared strings last)": [],
  "exceljs' (sheets, shared strings, workbook.xml last)": [
    'xl/_rels/workbook.xml.rels',
    'xl/worksheets/sheet1.xml',
    'xl/worksheets/sheet2.xml',
    'xl/sharedStrings.xml',
  ],
  'a sheet after the shared strings, before workbook.xml': [
    'xl/_rels/workbook.xml.rels',
    'xl/sharedStrings.xml',
    'xl/worksheets/sheet1.xml',
    'xl/worksheets/sheet2.xml',
  ],
  'workbook.xml between the two sheets': [
    'xl/_rels/workbook.xml.rels',
    'xl/sharedStrings.xml',
    'xl/worksheets/sheet2.xml',
    'xl/workbook.xml',
    'xl/worksheets/sheet1.xml',
  ],
  'relationships last': [
    'xl/workbook.xml',
    'xl/worksheets/sheet1.xml',
    'xl/sharedStrings.xml',
    'xl/worksheets/sheet2.xml',
    '[Content_Types].xml',
    '_rels/.rels',
    'xl/_rels/workbook.xml.rels',
  ],
};

describe('a workbook is read whatever the order of its zip entries', () => {
  for (const [name, order] of Object.entries(ORDERS)) {
    it(`${name}: each sheet by name, every cell`, async () => {
      const path = join(dir, 'two.xlsx');
      writeZip(path, reordered(twoSheetWorkbook(), order));
      expect(await allRows(await openWorkbook(path, 'two.xlsx', 'Lieferanten'))).toEqual(LIEFERANTEN);
      expect(await allRows(await openWorkbook(path, 'two.xlsx', 'kunden'))).toEqual(KUNDEN);
      expect(await allRows(await openWorkbook(path, 'two.xlsx'))).toEqual(
        order.indexOf('xl/worksheets/sheet2.xml') >= 0 &&
          order.indexOf('xl/worksheets/sheet2.xml') < order.indexOf('xl/worksheets/sheet1.xml')
          ? LIEFERANTEN
          : KUNDEN,
      );
    });
  }

  it('a workbook without shared strings (inline strings only) is read too', async () => {
    const path = join(dir, 'inline.xlsx');
    const parts = twoSheetWorkbook();
    const inline = (xml: Buffer, strings: string[]) =>
      Buffer.from(
        xml
          .toString()
          .replace(
            /<c r="([A-Z]+\d+)" t="s"><v>(\d+)<\/v><\/c>/g,
            (_, ref, i) => `<c r="${ref}" t="inlineStr"><is><t>${strings[Number(i)]}</t></is></c>`,
          ),
      );
    const strings = [...parts['xl/sharedStrings.xml']!.toString().matchAll(/<t>([^<]*)<\/t>/g)].map(
      (m) => m[1]!,
    );
    const { 'xl/sharedStrings.xml': _sst, ...rest } = parts;
    writeZip(path, {
      ...rest,
      'xl/worksheets/sheet1.xml': inline(parts['xl/worksheets/sheet1.xml']!, strings),
      'xl/worksheets/sheet2.xml': inline(parts['xl/worksheets/sheet2.xml']!, strings),
    });
    expect(await allRows(await openWorkbook(path, 'inline.xlsx', 'Lieferanten'))).toEqual(LIEFERANTEN);
    expect(await allRows(await openWorkbook(path, 'inline.xlsx'))).toEqual(KUNDEN);
  });

  it('a two-sheet workbook written by exceljs (workbook.xml last) is read ten times in a row, either sheet', async () => {
    const path = join(dir, 'exceljs.xlsx');
    await writeTestWorkbook(path, { Kunden: KUNDEN, Lieferanten: LIEFERANTEN });
    for (let n = 0; n < 10; n++) {
      expect(await allRows(await openWorkbook(path, 'exceljs.xlsx', 'Lieferanten'))).toEqual(LIEFERANTEN);
      expect(await allRows(await openWorkbook(path, 'exceljs.xlsx'))).toEqual(KUNDEN);
    }
  });
});

describe('reading a workbook writes nothing to stderr', () => {
  it('a workbook of 17 zip entries (as exceljs saves one) is checked and read without a process warning', async () => {
    const path = join(dir, 'many.xlsx');
    await writeTestWorkbook(path, { Kunden: KUNDEN, Lieferanten: LIEFERANTEN });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      expect(await allRows(await openWorkbook(path, 'many.xlsx', 'Lieferanten'))).toEqual(LIEFERANTEN);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
