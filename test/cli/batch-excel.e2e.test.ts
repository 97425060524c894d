import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validDe, wrongCheckDigit } from '../helpers/batch-data.js';
import { ensureBuilt, spawnSvc } from '../helpers/built-cli.js';
import { libreOfficeCsv, SOFFICE } from '../helpers/libreoffice.js';
import { runBin } from '../helpers/run-bin.js';
import { writeTestWorkbook } from '../helpers/workbooks.js';

if (!SOFFICE)
  console.warn('skipping the LibreOffice round trip: soffice (libreoffice-calc-nogui) is not installed');

const dir = mkdtempSync(join(tmpdir(), 'svc-batch-excel-e2e-'));
const file = (name: string) => join(dir, name);
let server: ReturnType<typeof spawnSvc> | undefined;
let url = '';

beforeAll(async () => {
  ensureBuilt();
  server = spawnSvc(['serve', '--port', '0'], {});
  url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(server?.output().stdout ?? '');
      if (match) resolve(match[1] as string);
    };
    server?.stdout?.on('data', look);
    server?.once('exit', (code) => reject(new Error(`svc serve exited ${code}`)));
  });
}, 180_000);
afterAll(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const HEADER = ['Land', 'USt-IdNr', 'Firma', 'Straße', 'PLZ', 'Ort'];
const ROWS = [
  ['DE', `DE${validDe(101)}`, 'Müller & Söhne GmbH', 'Königsallee 1', '40212', 'Düsseldorf'],
  ['DE', wrongCheckDigit(validDe(102)), 'Bäckerei Größe', 'Hauptstraße 5', '50667', 'Köln'],
  ['AT', 'ATU13585627', 'Österreich Äpfel KG', 'Gürtel 3', '1010', 'Wien'],
  ['DE', 'DE12345', '=1+1', '', '', ''],
];

describe.skipIf(!SOFFICE)(
  'an .xlsx with German headers, umlauts and a blank row gives an .xlsx LibreOffice reads',
  () => {
    it('every input cell intact, the outcome columns filled (built CLI, svc serve, --wait)', async () => {
      await writeTestWorkbook(file('kunden.xlsx'), {
        Kunden: [HEADER, ROWS[0], undefined, ...ROWS.slice(1)],
      });
      const run = await runBin(
        [
          'batch',
          file('kunden.xlsx'),
          '--out',
          file('ergebnis.xlsx'),
          '--wait',
          '--register',
          url,
          '--wait-timeout',
          '60',
        ],
        { env: { SVC_BASE_URL: url, SVC_API_KEY: 'ak_demo_project' } },
      );
      expect(run.stderr).toMatch(/batch: 4 rows/);
      expect(run.code).toBe(0);
      const records = await libreOfficeCsv(file('ergebnis.xlsx'));
      expect(records[0]).toEqual([
        ...HEADER,
        'row',
        'line',
        'status',
        'outcome',
        expect.any(String),
        ...Array(8).fill(expect.any(String)),
      ]);
      expect(records.slice(1).map((r) => r.slice(0, 6))).toEqual(ROWS);
      expect(records.slice(1).map((r) => r.slice(6, 10))).toEqual([
        ['1', '2', 'completed', 'VALID'],
        ['2', '4', 'completed', 'INVALID'],
        ['3', '5', 'completed', 'VALID'],
        ['4', '6', 'rejected', ''],
      ]);
    }, 240_000);
  },
);

describe('a Windows-1252 ; CSV gives a ; CSV with a UTF-8 BOM, line numbers as the spreadsheet shows (built CLI)', () => {
  it('against svc serve', async () => {
    const text = `${['Land;USt-IdNr;Firma;Ort', `DE;${validDe(7)};Müller GmbH;Köln`, '', 'DE;;Leer AG;Jena'].join('\r\n')}\r\n`;
    writeFileSync(file('kunden.csv'), iconv.encode(text, 'windows-1252'));
    const run = await runBin(['batch', file('kunden.csv'), '--out', file('ergebnis-1252.csv')], {
      env: { SVC_BASE_URL: url, SVC_API_KEY: 'ak_demo_project' },
    });
    expect(run.stderr).toMatch(/batch: 2 rows/);
    expect(run.code).toBe(0);
    const out = readFileSync(file('ergebnis-1252.csv'));
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = out.subarray(3).toString('utf8').trim().split('\n');
    expect(lines[1]).toMatch(/^DE;\d+;Müller GmbH;Köln;1;2;submitted;/);
    expect(lines[2]).toMatch(/^DE;;Leer AG;Jena;2;4;rejected;.*;SCHEMA;USt-IdNr is empty$/);
  }, 60_000);
});
