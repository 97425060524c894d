import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { BatchInputError } from '../../src/node/batch-file/errors.js';
import { openWorkbook } from '../../src/node/batch-file/xlsx/open.js';
import { checkWorkbookArchive } from '../../src/node/batch-file/xlsx/zip/check.js';
import { WORKBOOK_LIMITS, type WorkbookLimits } from '../../src/node/batch-file/xlsx/zip/limits.js';
import { failure } from '../helpers/client.js';
import {
  minimalWorkbook,
  sharedStringsXml,
  type TestZipEntry,
  writeTestWorkbook,
  writeZip,
  zipBytes,
} from '../helpers/workbooks.js';

// Issue 33.1: a workbook is judged by what it really unpacks to, not by what its zip declares.

const MiB = 1024 ** 2;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-zip-limits-'));
});
const file = (name: string) => join(dir, name);

/** Small limits, so that each rule can be passed with a few MB. */
const SMALL: WorkbookLimits = {
  ...WORKBOOK_LIMITS,
  totalBytes: 6 * MiB,
  entryBytes: 4 * MiB,
  sharedStringsBytes: 2 * MiB,
  partBytes: 1 * MiB,
  rowBytes: 1 * MiB,
};

/** A workbook made of the minimal parts, with some replaced or added. */
function workbook(name: string, parts: Record<string, Buffer | TestZipEntry> = {}): string {
  writeZip(file(name), { ...minimalWorkbook(sharedStringsXml('DE136695976')), ...parts });
  return file(name);
}

async function refused(path: string, message: RegExp, limits = SMALL): Promise<void> {
  const error = await failure(checkWorkbookArchive(path, 'in.xlsx', limits));
  expect(error).toBeInstanceOf(BatchInputError);
  expect(error.message).toMatch(message);
  expect(error.message.split('\n')).toHaveLength(1);
}

/** Text that deflate packs about 3:1 (random hex): no ratio rule is near. */
function looseText(bytes: number): Buffer {
  const hex = Buffer.from('0123456789abcdef');
  const out = Buffer.alloc(Math.round(bytes));
  let seed = 7;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    out[i] = hex[(seed >>> 16) % 16] as number;
  }
  return out;
}

/** Overwrites a 32-bit field of the central record of `name` (the name's last occurrence). */
function patchCentral(bytes: Buffer, name: string, field: number, value: number): Buffer {
  const at = bytes.lastIndexOf(Buffer.from(name)) - 46;
  bytes.writeUInt32LE(value, at + field);
  return bytes;
}

describe('a workbook as real writers make it passes', () => {
  it('exceljs-written (data descriptors), hand-written deflated and stored entries', async () => {
    await writeTestWorkbook(file('exceljs.xlsx'), {
      S: [
        ['Land', 'USt-IdNr'],
        ['DE', '136695976'],
      ],
      T: [['x']],
    });
    await checkWorkbookArchive(file('exceljs.xlsx'), 'exceljs.xlsx');
    await checkWorkbookArchive(workbook('plain.xlsx'), 'plain.xlsx', SMALL);
    const parts = minimalWorkbook(sharedStringsXml('DE136695976'));
    const stored = Object.fromEntries(
      Object.entries(parts).map(([name, data], i) => [
        name,
        { data, method: i % 2 === 0 ? 0 : 8, descriptor: i % 3 === 0 },
      ]),
    );
    writeZip(file('mixed.xlsx'), stored);
    await checkWorkbookArchive(file('mixed.xlsx'), 'mixed.xlsx', SMALL);
    const table = await openWorkbook(file('mixed.xlsx'), 'mixed.xlsx');
    expect(table.header).toEqual(['Land', 'USt-IdNr']);
    const rows = [];
    for await (const row of table.rows) rows.push(row.cells);
    expect(rows).toEqual([['DE', 'DE136695976']]);
  });
});

describe('an entry unpacks to exactly the size its headers declare', () => {
  it('more than declared is a zip bomb, stopped long before its real size', async () => {
    const path = workbook('lie.xlsx', {
      'xl/sharedStrings.xml': { data: sharedStringsXml('DE1', 50 * MiB), declared: 4096 },
    });
    await refused(
      path,
      /in\.xlsx looks like a zip bomb: xl\/sharedStrings\.xml unpacks to more than the 4096 bytes its zip header declares/,
      WORKBOOK_LIMITS,
    );
  });

  it('fewer than declared is damaged', async () => {
    const path = workbook('short.xlsx', {
      'xl/styles.xml': { data: Buffer.from('<styleSheet/>'), declared: 100 },
    });
    await refused(
      path,
      /in\.xlsx is damaged or forged: xl\/styles\.xml unpacks to 13 bytes, not the 100 its zip header declares/,
    );
  });

  it('the directory and the local header disagree', async () => {
    writeZip(file('two.xlsx'), minimalWorkbook(sharedStringsXml('DE1')), { 'xl/workbook.xml': 300 });
    await refused(
      file('two.xlsx'),
      /xl\/workbook\.xml declares other sizes in its local header than in the directory/,
    );
  });

  it('a data descriptor that disagrees with the directory', async () => {
    const bytes = zipBytes({
      ...minimalWorkbook(sharedStringsXml('DE1')),
      'xl/styles.xml': { data: Buffer.from('<a/>'), descriptor: true },
    });
    patchCentral(bytes, 'xl/styles.xml', 24, 5);
    writeFileSync(file('desc.xlsx'), bytes);
    await refused(
      file('desc.xlsx'),
      /xl\/styles\.xml has a data descriptor that disagrees with the directory/,
    );
  });
});

describe('each entry has a limit on its real size', () => {
  it('a sheet over entryBytes', async () => {
    const path = workbook('sheet.xlsx', { 'xl/worksheets/sheet2.xml': looseText(5 * MiB) });
    await refused(
      path,
      /in\.xlsx looks like a zip bomb: xl\/worksheets\/sheet2\.xml unpacks to more than 4 MB/,
    );
  });

  it('the shared strings table over sharedStringsBytes', async () => {
    const path = workbook('sst.xlsx', { 'xl/sharedStrings.xml': looseText(3 * MiB) });
    await refused(path, /in\.xlsx has a shared strings table of 3 MB \(limit 2 MB\): save it as CSV/);
  });

  it('styles.xml (parsed whole) over partBytes', async () => {
    const path = workbook('styles.xml', { 'xl/styles.xml': looseText(1.5 * MiB) });
    await refused(path, /in\.xlsx looks like a zip bomb: xl\/styles\.xml unpacks to more than 1 MB/);
  });

  it('the same limits with the default values (declared over 64 MB shared strings)', async () => {
    writeZip(file('strings.xlsx'), minimalWorkbook(Buffer.from('<sst/>')), {
      'xl/sharedStrings.xml': 300 * MiB,
    });
    await refused(file('strings.xlsx'), /shared strings table of 300 MB \(limit 64 MB\)/, WORKBOOK_LIMITS);
  });
});

describe('the shared strings table holds at most sharedStringRuns rich text runs', () => {
  const sst = (si: string, n: number) =>
    Buffer.from(
      `<sst><si><t>DE</t></si><si><t>DE1</t></si>${Array.from({ length: n }, (_, i) => si.replace('#', i.toString(36))).join('')}</sst>`,
    );

  it('one run more than the limit is refused, however the tag is written', async () => {
    const limits = { ...SMALL, sharedStringRuns: 1000 };
    await checkWorkbookArchive(
      workbook('runs.xlsx', { 'xl/sharedStrings.xml': sst('<si><r><t>#</t></r></si>', 1000) }),
      'runs.xlsx',
      limits,
    );
    for (const run of ['<r>', '<r/>', '<r\n>', '<r  >']) {
      const path = workbook('runs.xlsx', { 'xl/sharedStrings.xml': sst(`<si><t>#</t>${run}</si>`, 1001) });
      await refused(
        path,
        /in\.xlsx has more than 1000 rich text runs in its shared strings: save it as CSV/,
        limits,
      );
    }
  });
});

describe('all entries together have a limit on their real size', () => {
  it('two sheets under entryBytes, over totalBytes together', async () => {
    const path = workbook('total.xlsx', {
      'xl/worksheets/sheet2.xml': looseText(3.5 * MiB),
      'xl/worksheets/sheet3.xml': looseText(3.5 * MiB),
    });
    await refused(path, /in\.xlsx unpacks to more than 6 MB: save it as CSV/);
  });
});

describe('an entry may unpack at most `ratio` times its packed size', () => {
  it('a sheet of 20 MB of spaces (1000:1) is a zip bomb, counted on the real bytes', async () => {
    const path = workbook('ratio.xlsx', { 'xl/worksheets/sheet2.xml': Buffer.alloc(20 * MiB, 0x20) });
    await refused(
      path,
      /looks like a zip bomb: xl\/worksheets\/sheet2\.xml unpacks \d+ times its size/,
      WORKBOOK_LIMITS,
    );
  });

  it('a small entry packs as tightly as it likes', async () => {
    await checkWorkbookArchive(
      workbook('small.xlsx', { 'xl/styles.xml': Buffer.alloc(512 * 1024, 0x20) }),
      'small.xlsx',
      SMALL,
    );
  });
});

describe('a sheet row is at most rowBytes of XML', () => {
  const sheet = (rows: string[]) =>
    Buffer.from(
      `<worksheet><sheetData>${rows.map((r, i) => `<row r="${i + 1}">${r}</row>`).join('')}</sheetData></worksheet>`,
    );

  it('one row of 1.5 MB is refused, 2.5 MB of small rows pass', async () => {
    const big = `<c r="A1" t="inlineStr"><is><t>${looseText(1.5 * MiB)}</t></is></c>`;
    await refused(
      workbook('row.xlsx', { 'xl/worksheets/sheet1.xml': sheet([big]) }),
      /in\.xlsx: xl\/worksheets\/sheet1\.xml has a row of more than 1 MB/,
    );
    const small = Array.from(
      { length: 20_000 },
      (_, i) => `<c r="A${i}" t="inlineStr"><is><t>${'x'.repeat(80)}</t></is></c>`,
    );
    await checkWorkbookArchive(
      workbook('rows.xlsx', { 'xl/worksheets/sheet1.xml': sheet(small) }),
      'rows.xlsx',
      SMALL,
    );
  });
});

describe('entries lie one after the other, inside the file, as the directory places them', () => {
  it('a local header offset outside the file', async () => {
    writeFileSync(
      file('out.xlsx'),
      patchCentral(zipBytes(minimalWorkbook(sharedStringsXml('DE1'))), 'xl/workbook.xml', 42, 0x7fffffff),
    );
    await refused(
      file('out.xlsx'),
      /in\.xlsx is damaged or forged: .* (starts outside the archive|does not start where)/,
    );
  });

  it('data running into the central directory', async () => {
    writeFileSync(
      file('long.xlsx'),
      patchCentral(
        zipBytes(minimalWorkbook(sharedStringsXml('DE1'))),
        'xl/worksheets/sheet1.xml',
        20,
        1_000_000,
      ),
    );
    await refused(
      file('long.xlsx'),
      /xl\/worksheets\/sheet1\.xml (has data outside the archive|declares other sizes)/,
    );
  });

  it('an entry the directory does not list, hidden between two listed ones', async () => {
    const parts = minimalWorkbook(sharedStringsXml('DE1'));
    const hidden = zipBytes({ 'xl/sharedStrings.xml': Buffer.alloc(1000, 0x20) }).subarray(
      0,
      30 + 20 + deflateRawSync(Buffer.alloc(1000, 0x20)).length,
    );
    const listed = zipBytes(parts);
    // Shift every listed entry after the first by the hidden entry's length.
    const first =
      30 + '[Content_Types].xml'.length + deflateRawSync(parts['[Content_Types].xml'] as Buffer).length;
    const forged = Buffer.concat([listed.subarray(0, first), hidden, listed.subarray(first)]);
    const end = forged.length - 22;
    forged.writeUInt32LE(forged.readUInt32LE(end + 16) + hidden.length, end + 16);
    for (const name of Object.keys(parts).slice(1)) {
      const at = forged.lastIndexOf(Buffer.from(name)) - 46;
      forged.writeUInt32LE(forged.readUInt32LE(at + 42) + hidden.length, at + 42);
    }
    writeFileSync(file('hidden.xlsx'), forged);
    await refused(file('hidden.xlsx'), /_rels\/\.rels does not start where the entry before it ends/);
  });

  it('the same name twice', async () => {
    const parts = zipBytes({
      ...minimalWorkbook(sharedStringsXml('DE1')),
      'xl/sharedStrings.xmX': sharedStringsXml('DE2'),
    });
    parts.write('xl/sharedStrings.xml', parts.lastIndexOf('xl/sharedStrings.xmX'));
    parts.write('xl/sharedStrings.xml', parts.indexOf('xl/sharedStrings.xmX'));
    writeFileSync(file('twice.xlsx'), parts);
    await refused(file('twice.xlsx'), /xl\/sharedStrings\.xml is in it twice/);
  });
});

describe('only stored and deflated entries, never encrypted', () => {
  it('a stored entry is counted like a deflated one', async () => {
    await refused(
      workbook('stored.xlsx', { 'xl/worksheets/sheet2.xml': { data: looseText(5 * MiB), method: 0 } }),
      /sheet2\.xml unpacks to more than 4 MB/,
    );
  });

  it('another compression method', async () => {
    await refused(
      workbook('bzip.xlsx', { 'xl/styles.xml': { data: Buffer.from('<a/>'), method: 12 } }),
      /xl\/styles\.xml uses compression method 12/,
    );
  });

  it('an encrypted entry', async () => {
    const bytes = zipBytes(minimalWorkbook(sharedStringsXml('DE1')));
    const at = bytes.lastIndexOf(Buffer.from('xl/workbook.xml')) - 46;
    bytes.writeUInt16LE(1, at + 8);
    writeFileSync(file('secret.xlsx'), bytes);
    await refused(
      file('secret.xlsx'),
      /in\.xlsx is encrypted: xl\/workbook\.xml cannot be read without a password/,
    );
  });
});

describe('the data of an entry is whole and true', () => {
  const data = looseText(200_000);
  const packed = deflateRawSync(data);

  it('cut short', async () => {
    await refused(
      workbook('cut.xlsx', { 'xl/styles.xml': { data, raw: packed.subarray(0, packed.length - 100) } }),
      /xl\/styles\.xml cannot be unpacked \(unexpected end of file\)/,
    );
  });

  it('bytes after the compressed stream', async () => {
    await refused(
      workbook('tail.xlsx', { 'xl/styles.xml': { data, raw: Buffer.concat([packed, Buffer.alloc(50)]) } }),
      /xl\/styles\.xml has 50 bytes after its compressed data/,
    );
  });

  it('garbage instead of deflate', async () => {
    await refused(
      workbook('junk.xlsx', { 'xl/styles.xml': { data, raw: Buffer.alloc(5000, 0xff) } }),
      /xl\/styles\.xml cannot be unpacked/,
    );
  });

  it('a wrong checksum', async () => {
    const bytes = zipBytes({
      ...minimalWorkbook(sharedStringsXml('DE1')),
      'xl/styles.xml': { data, descriptor: true },
    });
    const crcAt = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08])) + 4;
    bytes.writeUInt32LE(bytes.readUInt32LE(crcAt) ^ 1, crcAt);
    patchCentral(bytes, 'xl/styles.xml', 16, bytes.readUInt32LE(crcAt));
    writeFileSync(file('crc.xlsx'), bytes);
    await refused(file('crc.xlsx'), /xl\/styles\.xml fails its checksum/);
  });

  it('a data descriptor signature inside the data of a descriptor entry', async () => {
    const inner = Buffer.concat([
      Buffer.from('<a>'),
      Buffer.from([0x50, 0x4b, 0x07, 0x08]),
      Buffer.from('</a>'),
    ]);
    await refused(
      workbook('sig.xlsx', { 'xl/styles.xml': { data: inner, method: 0, descriptor: true } }),
      /xl\/styles\.xml holds a data descriptor signature inside its data/,
    );
  });
});
