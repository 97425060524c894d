import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchInputError, BatchInterruptedError } from '../../src/node/batch-file/errors.js';
import { cellText } from '../../src/node/batch-file/xlsx/read.js';
import { OUTCOME_FILLS } from '../../src/node/batch-file/xlsx/write.js';
import { runBatchFile } from '../../src/node/index.js';
import { validDe, wrongCheckDigit } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { failure, useTestClients } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { readTestWorkbook, writeTestWorkbook, writeZip } from '../helpers/workbooks.js';

const server = useReferenceServer();
const client = useTestClients(server);
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-xlsx-'));
});
const file = (name: string) => join(dir, name);
const processed = () => server().admin.stats().validationsProcessed;

// exceljs copies a sheet stored before the shared strings to a temporary file (`tmp-<pid>-...`);
// every one must be gone once the runs are over, whether the sheet was read, skipped or refused.
afterAll(() => {
  expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`))).toEqual([]);
});

/** Each row of the first sheet as text cells (exceljs `row.values` is 1-based). */
async function sheetRows(path: string): Promise<{ rows: string[][]; sheet: ExcelJS.Worksheet }> {
  const workbook = await readTestWorkbook(path);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const values = row.values as unknown[];
    rows[n - 1] = Array.from({ length: sheet.columnCount }, (_, i) => cellText(values[i + 1]));
  });
  return { rows, sheet };
}

const GERMAN = ['Land', 'USt-IdNr', 'Firma', 'Straße', 'PLZ', 'Ort'];

describe('Excel in and out: the first sheet is read, a workbook is written', () => {
  it('German headers, umlauts and a blank row: input cells intact, outcome columns filled, coloured', async () => {
    await writeTestWorkbook(file('kunden.xlsx'), {
      Kunden: [
        GERMAN,
        ['DE', `DE${validDe(1)}`, 'Müller GmbH', 'Königstraße 1', '50667', 'Köln'],
        undefined,
        ['DE', wrongCheckDigit(validDe(2)), 'Bäckerei Schäfer', 'Hauptstr. 2', '40213', 'Düsseldorf'],
        ['US', '123456789', 'Acme Inc.', '1 Main St', '10001', 'New York'],
        ['DE', 'DE12345', '=HYPERLINK("http://evil.example","klick")', '', '', ''],
      ],
      Other: [['nothing']],
    });
    const result = await runBatchFile(client().tax, {
      input: { path: file('kunden.xlsx') },
      output: { path: file('ergebnis.xlsx') },
      send: { strategy: 'single' },
    });
    expect(result.counts).toEqual({
      'completed:VALID': 1,
      'completed:INVALID': 1,
      'completed:NOT_SUPPORTED': 1,
      rejected: 1,
    });
    const { rows, sheet } = await sheetRows(file('ergebnis.xlsx'));
    expect(sheet.name).toBe('Results');
    expect(rows[0]?.slice(0, 9)).toEqual([...GERMAN, 'row', 'line', 'status']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[6], r[7], r[8], r[9]])).toEqual([
      ['DE', 'Müller GmbH', '1', '2', 'completed', 'VALID'],
      ['DE', 'Bäckerei Schäfer', '2', '4', 'completed', 'INVALID'],
      ['US', 'Acme Inc.', '3', '5', 'completed', 'NOT_SUPPORTED'],
      ['DE', '=HYPERLINK("http://evil.example","klick")', '4', '6', 'rejected', ''],
    ]);
    expect(rows[1]?.slice(0, 6)).toEqual([
      'DE',
      `DE${validDe(1)}`,
      'Müller GmbH',
      'Königstraße 1',
      '50667',
      'Köln',
    ]);
    // Header frozen, autofilter over the header, outcome cells coloured.
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(String(sheet.autoFilter)).toMatch(/^A1:S1$/);
    const fills = [2, 3, 4].map(
      (n) => (sheet.getRow(n).getCell(10).fill as ExcelJS.FillPattern).fgColor?.argb,
    );
    expect(fills).toEqual([OUTCOME_FILLS.VALID, OUTCOME_FILLS.INVALID, OUTCOME_FILLS.other]);
    // Formula injection impossible: the cell is text, not a formula.
    const injected = sheet.getRow(5).getCell(3);
    expect(injected.type).toBe(ExcelJS.ValueType.String);
    expect(injected.formula).toBeUndefined();
    expect((statSync(file('ergebnis.xlsx')).mode & 0o777).toString(8)).toBe('600');
  });

  it('--sheet picks another sheet by name (case-insensitive)', async () => {
    await writeTestWorkbook(file('in.xlsx'), {
      Notizen: [['nur Text']],
      Kunden: [
        ['Pays', 'TVA'],
        ['FR', 'FR40303265045'],
      ],
    });
    const run = await runSvc(['batch', file('in.xlsx'), '--sheet', 'kunden', '--out', file('out.ndjson')], {
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(file('out.ndjson'), 'utf8'))).toMatchObject({
      row: 1,
      line: 2,
      status: 'submitted',
      input: { Pays: 'FR', TVA: 'FR40303265045' },
    });
  });

  it('CSV in, workbook out; workbook in, CSV out', async () => {
    writeFileSync(file('in.csv'), `Land;USt-IdNr\nDE;${validDe(3)}\n`);
    await runBatchFile(client().tax, { input: { path: file('in.csv') }, output: { path: file('out.xlsx') } });
    expect((await sheetRows(file('out.xlsx'))).rows[1]?.slice(0, 5)).toEqual([
      'DE',
      validDe(3),
      '1',
      '2',
      'submitted',
    ]);
    await writeTestWorkbook(file('in.xlsx'), {
      S: [
        ['Land', 'USt-IdNr'],
        ['DE', validDe(4)],
      ],
    });
    await runBatchFile(client().tax, { input: { path: file('in.xlsx') }, output: { path: file('out.csv') } });
    // A workbook's CSV results get a BOM, so Excel reads them as UTF-8.
    expect(readFileSync(file('out.csv'), 'utf8')).toMatch(
      new RegExp(`^\uFEFFLand,USt-IdNr,row,line,.*\nDE,${validDe(4)},1,2,submitted,`),
    );
  });
});

describe('workbook cells become text as a spreadsheet shows them', () => {
  it('a VAT ID typed as a number, a date, a formula, rich text, merged cells', async () => {
    await writeTestWorkbook(
      file('in.xlsx'),
      {
        S: [
          ['Land', 'USt-IdNr', 'Datum', 'Firma', 'Notiz'],
          [
            'DE',
            Number(validDe(5)),
            new Date(Date.UTC(2024, 2, 1)),
            { formula: 'CONCAT("A","B")', result: 'AB' },
            'x',
          ],
          [
            'DE',
            Number(validDe(6)),
            new Date(Date.UTC(2024, 2, 1, 14, 30)),
            { richText: [{ text: 'Fett ' }, { text: 'GmbH' }] },
            'y',
          ],
          ['DE', Number(validDe(7)), 45000, { formula: 'A1' }, 'merged'],
        ],
      },
      { merge: 'E4:E5', dateColumn: 3 },
    );
    await runBatchFile(client().tax, {
      input: { path: file('in.xlsx') },
      output: { path: file('out.ndjson') },
    });
    const inputs = readFileSync(file('out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { input: Record<string, string> }).input);
    expect(inputs).toEqual([
      { Land: 'DE', 'USt-IdNr': validDe(5), Datum: '2024-03-01', Firma: 'AB', Notiz: 'x' },
      { Land: 'DE', 'USt-IdNr': validDe(6), Datum: '2024-03-01 14:30:00', Firma: 'Fett GmbH', Notiz: 'y' },
      { Land: 'DE', 'USt-IdNr': validDe(7), Datum: '2023-03-15', Firma: '', Notiz: 'merged' },
    ]);
  });

  it('numbers keep 15 significant digits and no exponent', () => {
    expect(cellText(136695976)).toBe('136695976');
    expect(cellText(0.1 + 0.2)).toBe('0.3');
    expect(cellText(123456789012)).toBe('123456789012');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
    expect(cellText(true)).toBe('TRUE');
  });
});

describe('hostile workbooks are one clear error, before any row is sent', () => {
  const refused = async (path: string, message: RegExp, sheet?: string) => {
    const error = await failure(
      runBatchFile(client().tax, { input: { path, sheet }, output: { path: file('out.ndjson') } }),
    );
    expect(error).toBeInstanceOf(BatchInputError);
    expect(error.message).toMatch(message);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(processed()).toBe(0);
  };

  it('not a zip', async () => {
    writeFileSync(file('fake.xlsx'), 'Land,USt-IdNr\nDE,1\n');
    await refused(file('fake.xlsx'), /fake\.xlsx is not an Excel workbook \(\.xlsx\): not a zip archive/);
  });

  it('a zip that is not a workbook', async () => {
    writeZip(file('other.xlsx'), { 'readme.txt': Buffer.from('hello') });
    await refused(file('other.xlsx'), /is a zip archive but not an Excel workbook/);
  });

  it('a legacy .xls', async () => {
    writeFileSync(file('old.xls'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    await refused(file('old.xls'), /legacy Excel 97-2003 \(\.xls\) file: save it as \.xlsx or CSV/);
  });

  it('a zip bomb (a sheet packed 1000:1)', async () => {
    writeZip(file('bomb.xlsx'), {
      'xl/workbook.xml': Buffer.from('<workbook/>'),
      'xl/worksheets/sheet1.xml': Buffer.alloc(20 * 1024 * 1024, 0x20),
    });
    await refused(
      file('bomb.xlsx'),
      /looks like a zip bomb: xl\/worksheets\/sheet1\.xml unpacks \d+ times its size/,
    );
  });

  it('a huge shared strings table', async () => {
    writeZip(
      file('strings.xlsx'),
      { 'xl/workbook.xml': Buffer.from('<workbook/>'), 'xl/sharedStrings.xml': Buffer.from('<sst/>') },
      { 'xl/sharedStrings.xml': 300 * 1024 * 1024 },
    );
    await refused(file('strings.xlsx'), /shared strings table of 300 MB \(limit 64 MB\): save it as CSV/);
  });

  it('an empty sheet', async () => {
    await writeTestWorkbook(file('empty.xlsx'), { Leer: [] });
    await refused(file('empty.xlsx'), /sheet 'Leer' of .*empty\.xlsx is empty: a header row is required/);
  });

  it('a --sheet that does not exist lists the sheets', async () => {
    await writeTestWorkbook(file('two.xlsx'), { Tabelle1: [['a']], Tabelle2: [['b']] });
    await refused(file('two.xlsx'), /has no sheet 'Kunden'; sheets: 'Tabelle1', 'Tabelle2'/, 'Kunden');
  });

  it('--sheet on a CSV', async () => {
    writeFileSync(file('in.csv'), 'Land,USt-IdNr\n');
    await refused(file('in.csv'), /is a CSV file: --sheet applies only to an Excel workbook/, 'S');
  });

  it('through the CLI: exit 2, one line, no stack', async () => {
    writeFileSync(file('fake.xlsx'), 'not a zip');
    const run = await runSvc(['batch', file('fake.xlsx'), '--out', file('out.xlsx')], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\bat \w+ \(/);
    expect(existsSync(file('out.xlsx'))).toBe(false);
  });
});

describe('a workbook output resumes through its rows file', () => {
  it('interrupted: rows file and state kept, no workbook; --resume writes the workbook, nothing validated twice', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => ['DE', validDe(i + 11)]);
    await writeTestWorkbook(file('in.xlsx'), { S: [['Land', 'USt-IdNr'], ...rows] });
    const controller = new AbortController();
    const options = {
      input: { path: file('in.xlsx') },
      output: { path: file('out.xlsx') },
      send: { chunkSize: 50, concurrency: 2 },
    };
    const error = await failure(
      runBatchFile(client().tax, {
        ...options,
        signal: controller.signal,
        onProgress: (e) => {
          if (e.type === 'row' && e.rowsDone >= 200) controller.abort();
        },
      }),
    );
    expect(error).toBeInstanceOf(BatchInterruptedError);
    expect((error as BatchInterruptedError).statePath).toBe(file('out.xlsx.state.json'));
    expect(existsSync(file('out.xlsx'))).toBe(false);
    expect(existsSync(file('out.xlsx.rows.ndjson'))).toBe(true);
    const resumed = await runBatchFile(client().tax, { ...options, resume: { continue: true } });
    expect(resumed).toMatchObject({ rowsDone: 600, resumed: true });
    expect(processed()).toBe(600);
    const out = (await sheetRows(file('out.xlsx'))).rows;
    expect(out).toHaveLength(601);
    expect(out.slice(1).map((r) => r[2])).toEqual(rows.map((_, i) => String(i + 1)));
    expect(out.slice(1).map((r) => r[1])).toEqual(rows.map((r) => r[1]));
  });

  it('an existing workbook is not overwritten without --force', async () => {
    await writeTestWorkbook(file('in.xlsx'), {
      S: [
        ['Land', 'USt-IdNr'],
        ['DE', validDe(1)],
      ],
    });
    writeFileSync(file('out.xlsx'), 'precious');
    const run = await runSvc(['batch', file('in.xlsx'), '--out', file('out.xlsx')], { env: env() });
    expect(run.code).toBe(2);
    expect(readFileSync(file('out.xlsx'), 'utf8')).toBe('precious');
    const forced = await runSvc(['batch', file('in.xlsx'), '--out', file('out.xlsx'), '--force'], {
      env: env(),
    });
    expect(forced.code).toBe(0);
    expect((await sheetRows(file('out.xlsx'))).rows).toHaveLength(2);
  });
});
