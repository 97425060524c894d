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

/**
 * A zip archive of the given entries, deflated (written by hand: no zip library is a dependency).
 * `declared` states another unpacked size in the central directory, as a hostile file may.
 */
export function writeZip(
  path: string,
  entries: Record<string, Buffer>,
  declared: Record<string, number> = {},
): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(declared[name] ?? data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, dir, end]));
}
