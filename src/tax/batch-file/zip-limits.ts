import { open } from 'node:fs/promises';
import { BatchInputError } from './errors.js';

/** Limits a workbook must keep before it is unpacked. */
export const WORKBOOK_LIMITS = {
  /** Sum of the declared unpacked sizes of all entries: 2 GiB. */
  totalBytes: 2 * 1024 ** 3,
  /** The shared strings table, held in memory while the sheet is read: 256 MiB. */
  sharedStringsBytes: 256 * 1024 ** 2,
  /** Unpacked size per packed byte above which a large entry is a zip bomb: 200 (XML packs 10-30x). */
  ratio: 200,
  /** Entries in the archive. */
  entries: 10_000,
} as const;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/** One entry of a zip's central directory, as declared. */
interface ZipEntry {
  name: string;
  packed: number;
  unpacked: number;
}

/** Reads the central directory of the zip at `path` (the end record is in the last 64 KiB + 22 bytes). */
async function centralDirectory(path: string, label: string): Promise<ZipEntry[]> {
  const notWorkbook = () =>
    new BatchInputError(`${label} is not an Excel workbook (.xlsx): not a zip archive`);
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        end = i;
        break;
      }
    }
    if (end === -1) throw notWorkbook();
    const count = tail.readUInt16LE(end + 10);
    const dirSize = tail.readUInt32LE(end + 12);
    const dirOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || dirOffset === 0xffffffff)
      throw new BatchInputError(`${label} is a ZIP64 archive: too large for a customer list`);
    if (count > WORKBOOK_LIMITS.entries)
      throw new BatchInputError(`${label} has ${count} zip entries: too many`);
    if (dirOffset + dirSize > size) throw notWorkbook();
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw notWorkbook();
      const nameLength = dir.readUInt16LE(at + 28);
      const extra = dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
      entries.push({
        name: dir.toString('utf8', at + 46, at + 46 + nameLength),
        packed: dir.readUInt32LE(at + 20),
        unpacked: dir.readUInt32LE(at + 24),
      });
      at += 46 + nameLength + extra;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/**
 * Refuses a workbook that would take unbounded memory or time to unpack, from its zip central
 * directory, before a byte is inflated: not a zip, too many entries, too large in total, a shared
 * strings table over {@link WORKBOOK_LIMITS}`.sharedStringsBytes`, or an entry packed more tightly
 * than real spreadsheets are (a zip bomb).
 */
export async function checkWorkbookArchive(path: string, label: string): Promise<void> {
  const entries = await centralDirectory(path, label);
  const mb = (n: number) => `${Math.round(n / 1024 ** 2)} MB`;
  let total = 0;
  for (const entry of entries) {
    total += entry.unpacked;
    if (entry.unpacked === 0xffffffff || total > WORKBOOK_LIMITS.totalBytes)
      throw new BatchInputError(
        `${label} unpacks to more than ${mb(WORKBOOK_LIMITS.totalBytes)}: save it as CSV`,
      );
    if (/^xl\/sharedStrings\.xml$/i.test(entry.name) && entry.unpacked > WORKBOOK_LIMITS.sharedStringsBytes)
      throw new BatchInputError(
        `${label} has a shared strings table of ${mb(entry.unpacked)} (limit ${mb(WORKBOOK_LIMITS.sharedStringsBytes)}): save it as CSV`,
      );
    if (entry.unpacked > 1024 ** 2 && entry.unpacked > entry.packed * WORKBOOK_LIMITS.ratio)
      throw new BatchInputError(
        `${label} looks like a zip bomb: ${entry.name} unpacks ${Math.round(entry.unpacked / Math.max(entry.packed, 1))} times its size`,
      );
  }
  if (!entries.some((e) => /^xl\/workbook\.xml$/i.test(e.name)))
    throw new BatchInputError(`${label} is a zip archive but not an Excel workbook (.xlsx)`);
}
