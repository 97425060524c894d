import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellText } from '../../src/node/batch-file/xlsx/read.js';
import { validDe } from '../helpers/batch-data.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { lines, runBin } from '../helpers/run-bin.js';
import { readTestWorkbook } from '../helpers/workbooks.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-batch-cells-e2e-'));
const file = (name: string) => join(dir, name);
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TRIGGER = /^[=+\-@\t\r]/;

describe('a results workbook always reads back: forbidden characters become U+FFFD, said once (built CLI)', () => {
  it('U+FFFE in a CSV cell: svc batch --out out.xlsx --wait --sandbox, then svc batch out.xlsx reads it', async () => {
    const vat = `DE${validDe(301)}`;
    writeFileSync(
      file('in.csv'),
      `countryCode,rawValue,companyName,metadata.note\nDE,${vat},Firma \uFFFE GmbH,a\x01b\nDE,${vat},Plain AG,ok\n`,
    );
    const run = await runBin(['--sandbox', 'batch', file('in.csv'), '--out', file('out.xlsx'), '--wait']);
    expect(run.stderr).toMatch(/batch: 2 rows/);
    expect(run.code).toBe(0);
    const warnings = lines(run.stderr).filter((l) => l.includes('a workbook cannot hold'));
    expect(warnings).toEqual([
      `warning: ${file('out.xlsx')}: 2 cell(s) had characters a workbook cannot hold; replaced with U+FFFD`,
    ]);

    const sheet = (await readTestWorkbook(file('out.xlsx'))).worksheets[0] as ExcelJS.Worksheet;
    expect(cellText(sheet.getRow(2).getCell(3).value)).toBe('Firma \uFFFD GmbH');

    const back = await runBin(['--sandbox', 'batch', file('out.xlsx'), '--out', file('back.ndjson')]);
    expect(back.stderr).toMatch(/batch: 2 rows/);
    expect(back.code).toBe(0);
    const inputs = lines(readFileSync(file('back.ndjson'), 'utf8')).map(
      (l) => (JSON.parse(l) as { input: Record<string, string> }).input,
    );
    expect(inputs.map((i) => [i.companyName, i['metadata.note']])).toEqual([
      ['Firma \uFFFD GmbH', 'a\uFFFDb'],
      ['Plain AG', 'ok'],
    ]);
  }, 120_000);

  it('a clean run says nothing about replaced characters', async () => {
    writeFileSync(file('clean.csv'), `countryCode,rawValue,companyName\nDE,DE${validDe(302)},Müller GmbH\n`);
    const run = await runBin(['--sandbox', 'batch', file('clean.csv'), '--out', file('clean.xlsx')]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/cannot hold/);
  }, 60_000);
});

describe('CSV output never lets a formula start a field, whichever of , ; or tab a spreadsheet splits at (built CLI)', () => {
  it("x,=1+1,y into a ; CSV and x;=cmd|' /C calc'!A0 into a , CSV", async () => {
    const vat = `DE${validDe(303)}`;
    writeFileSync(file('semi.csv'), `Land;USt-IdNr;Firma\nDE;${vat};"x,=1+1,y"\n`);
    writeFileSync(file('comma.csv'), `Land,USt-IdNr,Firma\nDE,${vat},x;=cmd|' /C calc'!A0\n`);
    for (const name of ['semi', 'comma']) {
      const run = await runBin(['--sandbox', 'batch', file(`${name}.csv`), '--out', file(`${name}-out.csv`)]);
      expect(run.code).toBe(0);
      const text = readFileSync(file(`${name}-out.csv`), 'utf8').replace(/^\uFEFF/, '');
      // Every field a spreadsheet could cut out of the file, whatever it splits at, quotes ignored.
      const fields = text.split(/[,;\t\r\n]/).map((f) => f.replace(/^"+/, ''));
      expect(
        fields.filter((f) => TRIGGER.test(f)),
        text,
      ).toEqual([]);
    }
    expect(readFileSync(file('semi-out.csv'), 'utf8')).toContain(`DE;${vat};"x,'=1+1,y";`);
    expect(readFileSync(file('comma-out.csv'), 'utf8')).toContain(`DE,${vat},"x;'=cmd|' /C calc'!A0",`);
  }, 60_000);
});
