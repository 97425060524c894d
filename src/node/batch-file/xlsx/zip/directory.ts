import type { FileHandle } from 'node:fs/promises';
import { BatchInputError } from '../../errors.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;

/** One entry of a zip's central directory, as declared. */
export interface ZipEntry {
  name: string;
  /** The name's raw bytes: a local header must repeat them exactly. */
  nameBytes: Buffer;
  /** General purpose flags: bit 0 encrypted, bit 3 sizes in a data descriptor after the data. */
  flags: number;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
  packed: number;
  unpacked: number;
  /** Where the entry's local header starts. */
  offset: number;
}

/** A zip's central directory and where it starts (the local entries must end there). */
export interface ZipDirectory {
  entries: ZipEntry[];
  dirOffset: number;
}

/**
 * Reads the central directory of the open zip (the end record is in the last 64 KiB + 22 bytes);
 * refuses what is not a zip, a ZIP64 archive, or more than `maxEntries` entries.
 */
export async function readZipDirectory(
  handle: FileHandle,
  size: number,
  label: string,
  maxEntries: number,
): Promise<ZipDirectory> {
  const notWorkbook = () =>
    new BatchInputError(`${label} is not an Excel workbook (.xlsx): not a zip archive`);
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
  if (count > maxEntries) throw new BatchInputError(`${label} has ${count} zip entries: too many`);
  if (dirOffset + dirSize > size) throw notWorkbook();
  const dir = Buffer.alloc(dirSize);
  await handle.read(dir, 0, dirSize, dirOffset);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw notWorkbook();
    const nameLength = dir.readUInt16LE(at + 28);
    const extra = dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
    if (at + 46 + nameLength > dir.length) throw notWorkbook();
    const nameBytes = Buffer.from(dir.subarray(at + 46, at + 46 + nameLength));
    entries.push({
      name: nameBytes.toString('utf8'),
      nameBytes,
      flags: dir.readUInt16LE(at + 8),
      method: dir.readUInt16LE(at + 10),
      crc: dir.readUInt32LE(at + 16),
      packed: dir.readUInt32LE(at + 20),
      unpacked: dir.readUInt32LE(at + 24),
      offset: dir.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extra;
  }
  return { entries, dirOffset };
}
