import { writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

/** A cell as a test writes it: text, a number, a date, or an exceljs value object (formula, rich text). */
export type TestCell = ExcelJS.CellValue;

/**
 * Writes an `.xlsx` with exceljs' in-memory API (the way Excel files look: shared strings,
 * styles), one sheet per entry; `undefined` rows are left out, so blank rows are real gaps.
 */
export async function writeTestWorkbook(
  path: string,
  sheets: Record<string, Array<TestCell[] | undefined>>,
  options: { merge?: string; dateColumn?: number } = {},
): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    rows.forEach((cells, i) => {
      if (cells) sheet.getRow(i + 1).values = cells;
    });
    if (options.merge) sheet.mergeCells(options.merge);
    if (options.dateColumn) sheet.getColumn(options.dateColumn).numFmt = 'dd.mm.yyyy';
  }
  await workbook.xlsx.writeFile(path);
}

/** Reads a workbook back with exceljs: each sheet's rows as text, and the sheet objects. */
export async function readTestWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

/** One entry of a hand-written zip, for the forms a hostile file may take. */
export interface TestZipEntry {
  data: Buffer;
  /** 0 stores the data as it is; default 8 (deflated). */
  method?: number;
  /** The bytes written as the entry's data instead of its compressed form (cut short, padded...). */
  raw?: Buffer;
  /** The unpacked size both headers declare instead of the real one. */
  declared?: number;
  /** Sizes and checksum in a data descriptor after the data, zeros in the local header (as exceljs writes). */
  descriptor?: boolean;
}

/**
 * A zip archive of the given entries, deflated (written by hand: no zip library is a dependency).
 * `declared` states another unpacked size in the central directory only, as a hostile file may.
 */
export function writeZip(
  path: string,
  entries: Record<string, Buffer | TestZipEntry>,
  declared: Record<string, number> = {},
): void {
  writeFileSync(path, zipBytes(entries, declared));
}

/** The bytes of the zip {@link writeZip} writes. */
export function zipBytes(
  entries: Record<string, Buffer | TestZipEntry>,
  declared: Record<string, number> = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, given] of Object.entries(entries)) {
    const entry = Buffer.isBuffer(given) ? { data: given } : given;
    const { data } = entry;
    const method = entry.method ?? 8;
    const packed = entry.raw ?? (method === 8 ? deflateRawSync(data) : data);
    const size = entry.declared ?? data.length;
    const flags = entry.descriptor ? 0x08 : 0;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (!entry.descriptor) {
      local.writeUInt32LE(crc32(data), 14);
      local.writeUInt32LE(packed.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared[name] ?? size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    const trailer = Buffer.alloc(entry.descriptor ? 16 : 0);
    if (entry.descriptor) {
      trailer.writeUInt32LE(0x08074b50, 0);
      trailer.writeUInt32LE(crc32(data), 4);
      trailer.writeUInt32LE(packed.length, 8);
      trailer.writeUInt32LE(size, 12);
    }
    locals.push(local, nameBytes, packed, trailer);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length + trailer.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/**
 * The parts of the smallest workbook exceljs reads: one sheet whose header row is `Land`,
 * `USt-IdNr` and whose cells A2, B2 are shared strings 0 and 1 of `sharedStrings` (the XML of the
 * table, which may hold any number of `<si>` after those two).
 */
export function minimalWorkbook(sharedStrings: Buffer): Record<string, Buffer> {
  const ns = 'http://schemas.openxmlformats.org';
  return {
    '[Content_Types].xml': Buffer.from(
      `<?xml version="1.0"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    '_rels/.rels': Buffer.from(
      `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': Buffer.from(
      `<?xml version="1.0"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Kunden" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': Buffer.from(
      `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${ns}/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/sharedStrings.xml': sharedStrings,
    'xl/worksheets/sheet1.xml': Buffer.from(
      `<?xml version="1.0"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Land</t></is></c><c r="B1" t="inlineStr"><is><t>USt-IdNr</t></is></c></row><row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c></row></sheetData></worksheet>`,
    ),
  };
}

/** A shared strings table: `DE`, then `vatId`, then `filler` bytes of further one-letter strings. */
export function sharedStringsXml(vatId: string, filler = 0): Buffer {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const head = Buffer.from(
    `<?xml version="1.0"?><sst xmlns="${ns}"><si><t>DE</t></si><si><t>${vatId}</t></si>`,
  );
  const unit = '<si><t>x</t></si>';
  const body = Buffer.alloc(Math.ceil(filler / unit.length) * unit.length, unit);
  return Buffer.concat([head, body, Buffer.from('</sst>')]);
}

/**
 * The parts of a two-sheet workbook as Excel writes one: sheets `Kunden` (sheet1.xml) and
 * `Lieferanten` (sheet2.xml), every cell a shared string (`t="s"`), each sheet a header
 * `Land`, `USt-IdNr` and `rows` rows (`DE`, `DE1000000<n>` on the first sheet, `AT`, `ATU<n>` on
 * the second). Entries in Excel's order; a test reorders them to see exceljs' reading order.
 */
export function twoSheetWorkbook(rows = 3): Record<string, Buffer> {
  const ns = 'http://schemas.openxmlformats.org';
  const strings: string[] = [];
  const index = (text: string) => {
    const at = strings.indexOf(text);
    return at >= 0 ? at : strings.push(text) - 1;
  };
  const sheet = (values: string[][]) => {
    const body = values
      .map(
        (cells, r) =>
          `<row r="${r + 1}">${cells.map((text, c) => `<c r="${'AB'[c]}${r + 1}" t="s"><v>${index(text)}</v></c>`).join('')}</row>`,
      )
      .join('');
    return Buffer.from(
      `<?xml version="1.0"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`,
    );
  };
  const header = ['Land', 'USt-IdNr'];
  const first = sheet([header, ...Array.from({ length: rows }, (_, n) => ['DE', `DE1000000${n}`])]);
  const second = sheet([header, ...Array.from({ length: rows }, (_, n) => ['AT', `ATU${n}`])]);
  const sst = strings.map((text) => `<si><t>${text}</t></si>`).join('');
  const rel = (id: number, type: string, target: string) =>
    `<Relationship Id="rId${id}" Type="${ns}/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const override = (part: string, type: string) =>
    `<Override PartName="${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${type}+xml"/>`;
  return {
    '[Content_Types].xml': Buffer.from(
      `<?xml version="1.0"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${override('/xl/workbook.xml', 'sheet.main')}${override('/xl/worksheets/sheet1.xml', 'worksheet')}${override('/xl/worksheets/sheet2.xml', 'worksheet')}${override('/xl/sharedStrings.xml', 'sharedStrings')}</Types>`,
    ),
    '_rels/.rels': Buffer.from(
      `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships">${rel(1, 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
    ),
    'xl/workbook.xml': Buffer.from(
      `<?xml version="1.0"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Kunden" sheetId="1" r:id="rId1"/><sheet name="Lieferanten" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': Buffer.from(
      `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships">${rel(1, 'worksheet', 'worksheets/sheet1.xml')}${rel(2, 'worksheet', 'worksheets/sheet2.xml')}${rel(3, 'sharedStrings', 'sharedStrings.xml')}</Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': first,
    'xl/worksheets/sheet2.xml': second,
    'xl/sharedStrings.xml': Buffer.from(
      `<?xml version="1.0"?><sst xmlns="${ns}/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${sst}</sst>`,
    ),
  };
}

/** The same parts in another order: `order` names come first, in that order, then the rest. */
export function reordered(parts: Record<string, Buffer>, order: string[]): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of order) if (parts[name]) out[name] = parts[name];
  for (const [name, data] of Object.entries(parts)) if (!(name in out)) out[name] = data;
  return out;
}
