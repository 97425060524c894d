import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runBatchFile } from '../../src/node/index.js';
import { validDe } from '../helpers/batch-data.js';
import { useTestClients } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-lines-'));
});
const file = (name: string) => join(dir, name);
const ndjson = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * Spreadsheet rows as LibreOffice shows this file (checked with `soffice --convert-to html`): the
 * header is row 1, an empty line is a row, a quoted cell over two lines is one row.
 */
const SHEET = [
  'Land;USt-IdNr;Firma', // 1
  `DE;${validDe(1)};A GmbH`, // 2
  '', // 3
  `DE;${validDe(2)};"Zwei`, // 4 (one row, two lines)
  'Zeilen GmbH"',
  ';;', // 5: only empty cells
  'DE;;Ohne Nummer GmbH', // 6
  `;${validDe(3)};Ohne Land GmbH`, // 7
  'DE;DE12345;Kurz GmbH', // 8
  // A lone carriage return (an old Mac line end): with CRLF line ends rows 9 and 10 are blank,
  // as LibreOffice shows `\r\r\n` (checked), so the next row is 11.
  '\r',
  `DE;${validDe(4)};"${'x'.repeat(300)}"`, // 11
];

describe('every result and reject carries line: the row number a spreadsheet shows', () => {
  it('header = 1, blank lines and blank rows counted, a multi-line cell is one row', async () => {
    writeFileSync(file('in.csv'), `${SHEET.join('\r\n')}\r\n`);
    const result = await runBatchFile(client().tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson'), rejects: file('rejects.csv') },
    });
    const rows = ndjson(file('out.ndjson'));
    expect(rows.map((r) => [r.row, r.line, r.status])).toEqual([
      [1, 2, 'submitted'],
      [2, 4, 'submitted'],
      [3, 6, 'rejected'],
      [4, 7, 'rejected'],
      [5, 8, 'rejected'],
      [6, 11, 'rejected'],
    ]);
    expect(result.rowsDone).toBe(6);
    const rejects = readFileSync(file('rejects.csv'), 'utf8').split('\r\n').join('\n').trim().split('\n');
    expect(rejects[0]).toBe('row;line;Land;USt-IdNr;Firma;code;message');
    expect(rejects.slice(1).map((l) => l.split(';').slice(0, 2).join(';'))).toEqual([
      '3;6',
      '4;7',
      '5;8',
      '6;11',
    ]);
  });
});

describe("reasons name the user's own column, never an internal field name or a schema message", () => {
  it('empty cells, a short number, an over-long name', async () => {
    writeFileSync(file('in.csv'), `${SHEET.join('\n')}\n`);
    await runBatchFile(client().tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
    });
    const reasons = ndjson(file('out.ndjson'))
      .filter((r) => r.status === 'rejected')
      .map((r) => `${r.code}: ${r.message}`);
    expect(reasons).toEqual([
      'SCHEMA: USt-IdNr is empty',
      'SCHEMA: Land is empty',
      'FORMAT: USt-IdNr does not have the format of a tax ID of this country (FORMAT)',
      'SCHEMA: Firma is longer than 256 characters',
    ]);
    for (const reason of reasons)
      expect(reason).not.toMatch(/rawValue|countryCode|companyName|Invalid input|Too big/);
  });
});
