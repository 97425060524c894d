import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import iconv from 'iconv-lite';
import { BatchInputError } from './errors.js';

/** How the bytes of a CSV input are turned into text. */
export interface InputEncoding {
  /** The encoding used to decode (`utf-8`, `utf-16le`, `utf-16be`, `windows-1252`, ...), as iconv-lite names it. */
  encoding: string;
  /** Bytes of byte order mark at the start of the file (skipped before decoding). */
  bomBytes: number;
  /** Why this encoding: asked for, found by its BOM, the UTF-8 default, or the fallback for invalid UTF-8. */
  source: 'option' | 'bom' | 'default' | 'fallback';
  /** With `fallback`: the byte offset of the first byte that is not valid UTF-8. */
  invalidAt?: number;
}

const BOMS: Array<{ bytes: number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/**
 * Labels that name ISO-8859-1 but, as in browsers (WHATWG Encoding), mean Windows-1252: files
 * called "Latin-1" nearly always hold Windows-1252 characters (`€`, `’`, `–`, `Œ`) in 0x80-0x9F.
 */
const MEANS_WINDOWS_1252 = new Set([
  'latin1',
  'latin-1',
  'iso-8859-1',
  'iso8859-1',
  'iso88591',
  'l1',
  'cp819',
]);

/**
 * The name an encoding label (`UTF-8`, `utf16le`, `cp1252`, `latin1`, ...) is decoded as, through
 * iconv-lite (the maintained decoding tables; Node 20's `TextDecoder` reads 0x80-0x9F of
 * windows-1252 as control characters). An unknown label is a {@link BatchInputError}.
 */
export function encodingName(label: string): string {
  const name = label.trim().toLowerCase();
  if (MEANS_WINDOWS_1252.has(name)) return 'windows-1252';
  if (name === 'utf8') return 'utf-8';
  if (name === '' || !iconv.encodingExists(name)) {
    throw new BatchInputError(
      `unknown encoding '${label}' (use e.g. utf-8, utf-16le, utf-16be, windows-1252, latin1)`,
    );
  }
  return name;
}

/** The offset of the first invalid UTF-8 byte of the file after `skip` bytes, or undefined; streamed. */
async function firstInvalidUtf8(path: string, skip: number): Promise<number | undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = skip;
  for await (const chunk of createReadStream(path, { start: skip, highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    try {
      decoder.decode(bytes, { stream: true });
    } catch {
      return offset + invalidOffsetIn(bytes);
    }
    offset += bytes.length;
  }
  try {
    decoder.decode();
  } catch {
    return offset;
  }
  return undefined;
}

/** Roughly where in a chunk UTF-8 decoding fails (for the warning; the chunk start when unsure). */
function invalidOffsetIn(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  const index = text.indexOf('\uFFFD');
  return index === -1 ? 0 : Buffer.byteLength(text.slice(0, index));
}

/**
 * Decides how to decode a file: the `requested` encoding when given (a BOM of that encoding is
 * still skipped), else by its BOM (UTF-8, UTF-16LE, UTF-16BE), else UTF-8 when every byte is
 * valid UTF-8 (checked in one streamed pass), else Windows-1252 (Excel's "CSV" on Windows in
 * Western Europe), reported as `fallback`.
 */
export async function detectEncoding(path: string, requested?: string): Promise<InputEncoding> {
  const head = Buffer.alloc(3);
  const handle = await open(path, 'r');
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, 3, 0));
  } finally {
    await handle.close();
  }
  const bom = BOMS.find((b) => length >= b.bytes.length && b.bytes.every((byte, i) => head[i] === byte));
  if (requested !== undefined) {
    const encoding = encodingName(requested);
    return { encoding, bomBytes: bom?.encoding === encoding ? bom.bytes.length : 0, source: 'option' };
  }
  if (bom) return { encoding: bom.encoding, bomBytes: bom.bytes.length, source: 'bom' };
  const invalidAt = await firstInvalidUtf8(path, 0);
  if (invalidAt === undefined) return { encoding: 'utf-8', bomBytes: 0, source: 'default' };
  return { encoding: 'windows-1252', bomBytes: 0, source: 'fallback', invalidAt };
}

/** A stream transform from bytes to text in `encoding`, chunk by chunk (bounded memory). */
export function decodingStream(encoding: string): Transform {
  const decoder = iconv.getDecoder(encoding, { stripBOM: false });
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = decoder.write(chunk);
      callback(null, text.length > 0 ? text : undefined);
    },
    flush(callback) {
      const text = decoder.end() ?? '';
      callback(null, text.length > 0 ? text : undefined);
    },
  });
}

/** Decodes a whole buffer in `encoding` (for the first line). */
export function decodeBytes(bytes: Buffer, encoding: string): string {
  return iconv.decode(bytes, encoding, { stripBOM: false });
}
