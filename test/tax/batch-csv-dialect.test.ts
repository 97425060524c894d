import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { beforeEach, describe, expect, it } from 'vitest';
import { validDe } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-dialect-'));
});
const file = (name: string) => join(dir, name);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The German Excel export of the issue: Windows-1252, `;`, CRLF, a blank line. */
function germanExport(): Buffer {
  const text = [
    'Land;USt-IdNr;Firma;Ort',
    `DE;${validDe(1)};Müller GmbH;Köln`,
    '',
    `DE;${validDe(2)};Bäckerei Schäfer;Düsseldorf`,
    'DE;DE12345;Größe & Co;Straßburg',
  ].join('\r\n');
  return iconv.encode(`${text}\r\n`, 'windows-1252');
}

async function batch(input: Buffer, ...flags: string[]) {
  writeFileSync(file('in.csv'), input);
  const run = await runSvc(
    ['batch', file('in.csv'), '--out', file('out.csv'), '--rejects', file('rej.csv'), ...flags],
    { env: env() },
  );
  return { run, out: readFileSync(file('out.csv')), rejects: readFileSync(file('rej.csv')) };
}

describe('CSV results are written the way the CSV came in', () => {
  it('a Windows-1252 ; CSV gives a ; CSV in UTF-8 with a BOM; line numbers are the spreadsheet rows', async () => {
    const { run, out, rejects } = await batch(germanExport());
    expect(run.code).toBe(0);
    expect(out.subarray(0, 3)).toEqual(BOM);
    expect(rejects.subarray(0, 3)).toEqual(BOM);
    const lines = out.subarray(3).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^Land;USt-IdNr;Firma;Ort;row;line;status;outcome;/);
    expect(lines[1]).toMatch(/^DE;\d+;Müller GmbH;Köln;1;2;submitted;/);
    expect(lines[2]).toMatch(/^DE;\d+;Bäckerei Schäfer;Düsseldorf;2;4;submitted;/);
    expect(lines[3]).toMatch(
      /^DE;DE12345;Größe & Co;Straßburg;3;5;rejected;;;;;;;;;FORMAT;USt-IdNr does not have/,
    );
    expect(rejects.subarray(3).toString('utf8').trim().split('\n')[1]).toMatch(
      /^3;5;DE;DE12345;Größe & Co;Straßburg;FORMAT;/,
    );
  });

  it('a UTF-8 , CSV without BOM gives the same: , and no BOM', async () => {
    const { out } = await batch(Buffer.from(`countryCode,vatId\nDE,${validDe(3)}\n`));
    expect(out.subarray(0, 3)).not.toEqual(BOM);
    expect(out.toString('utf8')).toMatch(/^countryCode,vatId,row,line,/);
  });

  it('a UTF-8 tab CSV with a BOM gives tabs and a BOM', async () => {
    const { out } = await batch(Buffer.concat([BOM, Buffer.from(`Pays\tTVA\nFR\t${'FR40303265045'}\n`)]));
    expect(out.subarray(0, 3)).toEqual(BOM);
    expect(out.subarray(3).toString('utf8')).toMatch(/^Pays\tTVA\trow\tline\t/);
  });
});

describe('--delimiter , | ; | tab and --bom / --no-bom override', () => {
  it('--delimiter tab --no-bom', async () => {
    const { out } = await batch(germanExport(), '--delimiter', 'tab', '--no-bom');
    expect(out.subarray(0, 3)).not.toEqual(BOM);
    expect(out.toString('utf8')).toMatch(/^Land\tUSt-IdNr\tFirma\tOrt\trow\t/);
  });

  it('--delimiter , --bom on a plain UTF-8 ; file; a cell holding the delimiter is quoted', async () => {
    const { out } = await batch(
      Buffer.from(`Land;USt-IdNr;Firma\nDE;${validDe(4)};"Schmidt, Söhne"\n`),
      '--delimiter',
      ',',
      '--bom',
    );
    expect(out.subarray(0, 3)).toEqual(BOM);
    expect(out.subarray(3).toString('utf8').split('\n')[1]).toMatch(/^DE,\d+,"Schmidt, Söhne",1,2,/);
  });

  it('a bad --delimiter is one line and exit 2, nothing written', async () => {
    writeFileSync(file('in.csv'), `Land;USt-IdNr\nDE;${validDe(5)}\n`);
    const run = await runSvc(['batch', file('in.csv'), '--out', file('out.csv'), '--delimiter', '|'], {
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/--delimiter must be , ; or tab, got '\|'$/);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });
});
