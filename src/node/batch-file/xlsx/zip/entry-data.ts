import type { FileHandle } from 'node:fs/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import { BatchInputError } from '../../errors.js';
import type { ZipEntry } from './directory.js';
import { fileRange } from './file-range.js';
import { markerGaps } from './marker-gaps.js';

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const DESCRIPTOR_MARK = Buffer.from([0x50, 0x4b, 0x07, 0x08]);

/** Where an entry's compressed bytes lie, as its local header places them. */
export interface EntryData {
  start: number;
  end: number;
  /** Where the next local header must start: after the data and its descriptor, if any. */
  next: number;
  /**
   * The local header gives no size: a sequential reader (exceljs' unzipper) takes the data up to
   * the first descriptor signature, so one inside the data would cut the entry there.
   */
  scanForDescriptor: boolean;
}

/**
 * Reads the local header of `entry` and checks it against the central directory: same name,
 * method and flags, the same sizes unless they follow in a data descriptor (which must then
 * follow the data and agree), and data that ends before the central directory at `limit`.
 * What a sequential reader sees is then what the directory declares.
 */
export async function readEntryData(
  handle: FileHandle,
  entry: ZipEntry,
  limit: number,
  label: string,
): Promise<EntryData> {
  const forged = (why: string) => new BatchInputError(`${label} is damaged or forged: ${entry.name} ${why}`);
  if ((entry.flags & 0x01) !== 0)
    throw new BatchInputError(`${label} is encrypted: ${entry.name} cannot be read without a password`);
  if (entry.method !== 0 && entry.method !== 8)
    throw forged(`uses compression method ${entry.method} (a workbook uses 0 or 8)`);
  if (entry.offset + 30 > limit) throw forged('starts outside the archive');
  const head = Buffer.alloc(30);
  await handle.read(head, 0, 30, entry.offset);
  if (head.readUInt32LE(0) !== LOCAL) throw forged('has no local header where the directory says');
  const nameLength = head.readUInt16LE(26);
  const start = entry.offset + 30 + nameLength + head.readUInt16LE(28);
  const end = start + entry.packed;
  if (end > limit) throw forged('has data outside the archive');
  const name = Buffer.alloc(nameLength);
  await handle.read(name, 0, nameLength, entry.offset + 30);
  if (!name.equals(entry.nameBytes)) throw forged('has another name in its local header');
  const flags = head.readUInt16LE(6);
  if (flags !== entry.flags || head.readUInt16LE(8) !== entry.method)
    throw forged('has another method or flags in its local header');
  const localPacked = head.readUInt32LE(18);
  const localUnpacked = head.readUInt32LE(22);
  if ((flags & 0x08) === 0 || localPacked !== 0) {
    if (localPacked !== entry.packed || localUnpacked !== entry.unpacked)
      throw forged('declares other sizes in its local header than in the directory');
    if (head.readUInt32LE(14) !== entry.crc && (flags & 0x08) === 0)
      throw forged('declares another checksum in its local header than in the directory');
  }
  if ((flags & 0x08) === 0) return { start, end, next: end, scanForDescriptor: false };
  if (end + 16 > limit) throw forged('has no data descriptor after its data');
  const descriptor = Buffer.alloc(16);
  await handle.read(descriptor, 0, 16, end);
  if (
    descriptor.readUInt32LE(0) !== DESCRIPTOR ||
    descriptor.readUInt32LE(4) !== entry.crc ||
    descriptor.readUInt32LE(8) !== entry.packed ||
    descriptor.readUInt32LE(12) !== entry.unpacked
  )
    throw forged('has a data descriptor that disagrees with the directory');
  return { start, end, next: end + 16, scanForDescriptor: localPacked === 0 };
}

/** A Node zlib error's words, for a damaged entry's message. */
function zlibWords(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('Z_') ? (error as Error).message : undefined;
}

/**
 * Unpacks the entry's data as a stream, discarding it, and hands each unpacked chunk with the
 * running count to `onChunk`, which throws to stop (the streams are destroyed at once). Refuses
 * an entry that unpacks to more or fewer bytes than declared, fails its checksum, is cut short,
 * has bytes after its compressed stream, or holds a descriptor signature a sequential reader
 * would stop at.
 */
export async function unpackEntry(
  handle: FileHandle,
  entry: ZipEntry,
  data: EntryData,
  label: string,
  onChunk: (chunk: Buffer, unpacked: number) => void,
): Promise<void> {
  const forged = (why: string) => new BatchInputError(`${label} is damaged or forged: ${entry.name} ${why}`);
  const source = Readable.from(fileRange(handle, data.start, data.end));
  const descriptorIn = markerGaps(DESCRIPTOR_MARK);
  const scan = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (data.scanForDescriptor && descriptorIn(chunk).found)
        return callback(forged('holds a data descriptor signature inside its data'));
      callback(null, chunk);
    },
  });
  const inflater = entry.method === 8 ? createInflateRaw() : undefined;
  let unpacked = 0;
  let crc = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      unpacked += chunk.length;
      crc = crc32(chunk, crc);
      try {
        if (unpacked > entry.unpacked)
          throw new BatchInputError(
            `${label} looks like a zip bomb: ${entry.name} unpacks to more than the ${entry.unpacked} bytes its zip header declares`,
          );
        onChunk(chunk, unpacked);
      } catch (error) {
        return callback(error as Error);
      }
      callback();
    },
  });
  try {
    await (inflater ? pipeline(source, scan, inflater, sink) : pipeline(source, scan, sink));
  } catch (error) {
    const words = zlibWords(error);
    if (words !== undefined) throw forged(`cannot be unpacked (${words})`);
    throw error;
  }
  // The inflater takes in only what its stream holds: the rest would be data no reader checks.
  if (inflater && inflater.bytesWritten < entry.packed)
    throw forged(`has ${entry.packed - inflater.bytesWritten} bytes after its compressed data`);
  if (unpacked !== entry.unpacked)
    throw forged(`unpacks to ${unpacked} bytes, not the ${entry.unpacked} its zip header declares`);
  if (crc >>> 0 !== entry.crc) throw forged('fails its checksum');
}
