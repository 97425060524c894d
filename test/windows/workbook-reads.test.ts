import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellText } from '../../src/node/batch-file/xlsx/read.js';
import { validDe } from '../helpers/batch-data.js';
import { ensureBuilt } from '../helpers/build.js';
import { libreOfficeCsv, SOFFICE } from '../helpers/libreoffice.js';
import {
  exeMissing,
  exeSvc,
  nodeSvc,
  type SvcCommand,
  useWinePrefix,
  WINE_TEST_TIMEOUT,
  type WineRun,
  wineMissing,
} from '../helpers/windows.js';
import { readTestWorkbook, writeTestWorkbook } from '../helpers/workbooks.js';

// Issue 36: a two-sheet workbook with shared strings (as Excel saves one) failed as batch input
// under Windows Node on most reads ("Cannot read properties of undefined (reading 'sheets')"):
// here it is read by `svc batch` ten times in a row, either sheet, and its output workbook is read
// back by `svc batch` under Windows and by LibreOffice on Linux, every cell intact. A file of its
// own, so that its Wine prefix (and wineserver) works beside the workflows file's.

const wine = useWinePrefix();
beforeAll(() => ensureBuilt(), 180_000);

const KUNDEN = [
  ['Land', 'USt-IdNr', 'Firma'],
  ...Array.from({ length: 5 }, (_, i) => ['DE', `DE${validDe(i + 40)}`, `Kunde ${i} Größe`]),
];
const LIEFERANTEN = [
  ['Land', 'USt-IdNr', 'Firma'],
  ...Array.from({ length: 4 }, (_, i) => ['DE', `DE${validDe(i + 90)}`, `Lieferant ${i} Straße & Söhne`]),
];

const records = (path: string): string[][] =>
  parse(readFileSync(path), { bom: true, relax_column_count: true });

function ok(run: WineRun): WineRun {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return run;
}

/** Every cell of a workbook's first sheet as text, as `svc batch` reads cells. */
async function sheetText(path: string): Promise<string[][]> {
  const [sheet] = (await readTestWorkbook(path)).worksheets;
  if (!sheet) throw new Error(`${path} has no sheet`);
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push(Array.from({ length: sheet.columnCount }, (_, c) => cellText(row.getCell(c + 1).value)));
  });
  return rows;
}

function workbookReads(command: SvcCommand): void {
  it(
    'ten reads in a row, either sheet by name: every row and cell each time',
    async () => {
      const dir = join(wine().scratch, `reads-${Math.random().toString(36).slice(2, 8)}`);
      mkdirSync(dir);
      await writeTestWorkbook(join(dir, 'zwei.xlsx'), { Kunden: KUNDEN, Lieferanten: LIEFERANTEN });
      for (let n = 0; n < 10; n++) {
        const rows = n % 2 === 0 ? LIEFERANTEN : KUNDEN;
        const sheet = rows === KUNDEN ? 'Kunden' : 'Lieferanten';
        const run = await wine().svc(
          command,
          ['--sandbox', 'batch', 'zwei.xlsx', '--sheet', sheet, '--out', `read-${n}.csv`, '--wait'],
          { cwd: dir },
        );
        expect(run.stderr, `read ${n}`).toBe(
          `batch: ${rows.length - 1} rows (completed:VALID ${rows.length - 1})\n`,
        );
        const out = records(join(dir, `read-${n}.csv`));
        expect(
          out.map((r) => r.slice(0, 3)),
          `read ${n}`,
        ).toEqual(rows);
      }
      // Ten Windows processes, each loading exceljs under Wine (about 5 s apiece on a busy machine):
      // half the suite's per-test budget for each read, not one budget for all ten.
    },
    5 * WINE_TEST_TIMEOUT,
  );

  it('the output .xlsx read back by svc batch under Windows and by LibreOffice: every cell intact', async () => {
    const dir = join(wine().scratch, `back-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(dir);
    await writeTestWorkbook(join(dir, 'zwei.xlsx'), { Kunden: KUNDEN, Lieferanten: LIEFERANTEN });
    ok(
      await wine().svc(
        command,
        ['--sandbox', 'batch', 'zwei.xlsx', '--sheet', 'Lieferanten', '--out', 'aus.xlsx', '--wait'],
        { cwd: dir },
      ),
    );
    const written = await sheetText(join(dir, 'aus.xlsx'));
    expect(written.map((r) => r.slice(0, 3))).toEqual(LIEFERANTEN);
    expect(written.slice(1).map((r) => r.slice(5, 7))).toEqual(
      LIEFERANTEN.slice(1).map(() => ['completed', 'VALID']),
    );

    const back = ok(
      await wine().svc(command, ['--sandbox', 'batch', 'aus.xlsx', '--out', 'zurueck.csv'], { cwd: dir }),
    );
    expect(back.stderr).toMatch(/batch: 4 rows/);
    const again = records(join(dir, 'zurueck.csv'));
    const [header = [], ...cells] = written;
    const width = header.length;
    // The input's columns named like svc's own output columns come back as `input.<name>`.
    expect(again[0]?.slice(0, width)).toEqual(header.map((name, i) => (i < 3 ? name : `input.${name}`)));
    expect(again.slice(1).map((r) => r.slice(0, width))).toEqual(cells);

    if (SOFFICE) {
      const office = await libreOfficeCsv(join(dir, 'aus.xlsx'));
      expect(office.map((r) => r.slice(0, width))).toEqual(written);
    }
  });
}

describe.skipIf(wineMissing)(
  'a two-sheet shared-strings workbook under Windows Node (node.exe bin\\svc.js)',
  { timeout: WINE_TEST_TIMEOUT },
  () => {
    workbookReads(nodeSvc());
  },
);

describe.skipIf(wineMissing || exeMissing)(
  'the same workbook with svc.exe',
  { timeout: WINE_TEST_TIMEOUT },
  () => {
    workbookReads(exeSvc());
  },
);
