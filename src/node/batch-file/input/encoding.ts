import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { BatchInputError } from '../errors.js';

type Iconv = typeof import('iconv-lite');
let iconvModule: Iconv | undefined;

/**
 * iconv-lite, loaded on first use: a UTF-8 input (the usual case) never needs it, and its tables
 * take a few milliseconds to load.
 */
async function iconv(): Promise<Iconv> {
  // A CommonJS package: its exports object is the default export.
  iconvModule ??= (await import('iconv-lite')).default;
  return iconvModule;
}

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
export async function encodingName(label: string): Promise<string> {
  const name = label.trim().toLowerCase();
  if (MEANS_WINDOWS_1252.has(name)) return 'windows-1252';
  if (name === 'utf8' || name === 'utf-8') return 'utf-8';
  if (name === '' || !(await iconv()).encodingExists(name)) {
    throw new BatchInputError(
      `unknown encoding '${label}' (use e.g. utf-8, utf-16le, utf-16be, windows-1252, latin1)`,
    );
  }
  return name;
}

/** Counts CSV records (lines with content outside quotes) as bytes or char codes arrive. */
class RecordCounter {
  records = 0;
  private quoted = false;
  private content = false;

  /** One byte (ASCII-compatible encodings) or UTF-16 code unit. */
  private step(code: number): void {
    if (code === 0x22) {
      this.quoted = !this.quoted;
      this.content = true;
    } else if (code === 0x0a) {
      if (this.quoted) return;
      if (this.content) this.records += 1;
      this.content = false;
    } else if (code !== 0x0d) this.content = true;
  }

  bytes(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) this.step(chunk[i] as number);
  }

  text(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) this.step(chunk.charCodeAt(i));
  }

  /** Records counted once the input has ended (a last line without a newline counts). */
  end(): number {
    return this.records + (this.content ? 1 : 0);
  }
}

/** Bytes at the end of `chunk` that start a UTF-8 sequence the chunk does not complete. */
function incompleteTail(chunk: Buffer): number {
  for (let i = chunk.length - 1; i >= Math.max(0, chunk.length - 4); i--) {
    const b = chunk[i] as number;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return chunk.length - i >= need ? 0 : chunk.length - i;
  }
  return 0;
}

/** Roughly where in a chunk UTF-8 decoding fails (for the warning; the chunk start when unsure). */
function invalidOffsetIn(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  const index = text.indexOf('\uFFFD');
  return index === -1 ? 0 : Buffer.byteLength(text.slice(0, index));
}

/**
 * One streamed pass over the file after `skip` bytes: counts its CSV records (quote-aware, empty
 * lines skipped, as csv-parse reads them) and, with `checkUtf8`, finds the first byte that is not
 * valid UTF-8. Bounded memory: one chunk at a time, no decoding of ASCII-compatible encodings.
 */
async function scan(
  path: string,
  skip: number,
  encoding: string,
  checkUtf8: boolean,
): Promise<{ records: number; invalidAt: number | undefined }> {
  const counter = new RecordCounter();
  const utf16 = encoding.startsWith('utf-16') || encoding.startsWith('utf16') || encoding.startsWith('ucs');
  const decoder = utf16 ? (await iconv()).getDecoder(encoding, { stripBOM: false }) : undefined;
  let invalidAt: number | undefined;
  let carry: Buffer = Buffer.alloc(0);
  let offset = skip;
  for await (const chunk of createReadStream(path, { start: skip })) {
    const bytes = chunk as Buffer;
    if (decoder) counter.text(decoder.write(bytes));
    else counter.bytes(bytes);
    if (checkUtf8 && invalidAt === undefined) {
      const joined = carry.length ? Buffer.concat([carry, bytes]) : bytes;
      const tail = incompleteTail(joined);
      const whole = joined.subarray(0, joined.length - tail);
      if (!isUtf8(whole)) invalidAt = offset - carry.length + invalidOffsetIn(whole);
      carry = Buffer.from(joined.subarray(joined.length - tail));
    }
    offset += bytes.length;
  }
  if (decoder) counter.text(decoder.end() ?? '');
  if (checkUtf8 && invalidAt === undefined && carry.length > 0) invalidAt = offset - carry.length;
  return { records: counter.end(), invalidAt };
}

/** How to decode an input, and its number of data rows (header excluded). */
export interface InspectedInput {
  encoding: InputEncoding;
  /** CSV records after the header, counted in the same pass (for the progress total). */
  rows: number;
}

/**
 * Decides how to decode a file, and counts its rows, in one streamed pass: the `requested`
 * encoding when given (a BOM of that encoding is still skipped), else by its BOM (UTF-8,
 * UTF-16LE, UTF-16BE), else UTF-8 when every byte is valid UTF-8, else Windows-1252 (Excel's
 * "CSV" on Windows in Western Europe), reported as `fallback`.
 */
export async function inspectInput(path: string, requested?: string): Promise<InspectedInput> {
  const head = Buffer.alloc(3);
  const handle = await open(path, 'r');
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, 3, 0));
  } finally {
    await handle.close();
  }
  const bom = BOMS.find((b) => length >= b.bytes.length && b.bytes.every((byte, i) => head[i] === byte));
  let encoding: InputEncoding;
  if (requested !== undefined) {
    const name = await encodingName(requested);
    encoding = { encoding: name, bomBytes: bom?.encoding === name ? bom.bytes.length : 0, source: 'option' };
  } else if (bom) encoding = { encoding: bom.encoding, bomBytes: bom.bytes.length, source: 'bom' };
  else encoding = { encoding: 'utf-8', bomBytes: 0, source: 'default' };
  const { records, invalidAt } = await scan(
    path,
    encoding.bomBytes,
    encoding.encoding,
    encoding.source === 'default',
  );
  if (invalidAt !== undefined)
    encoding = { encoding: 'windows-1252', bomBytes: 0, source: 'fallback', invalidAt };
  return { encoding, rows: Math.max(records - 1, 0) };
}

/** {@link inspectInput}'s encoding alone. */
export async function detectEncoding(path: string, requested?: string): Promise<InputEncoding> {
  return (await inspectInput(path, requested)).encoding;
}

/** A stream transform from bytes to text in `encoding`, chunk by chunk (bounded memory). */
export async function decodingStream(encoding: string): Promise<Transform> {
  const decoder = (await iconv()).getDecoder(encoding, { stripBOM: false });
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
export async function decodeBytes(bytes: Buffer, encoding: string): Promise<string> {
  if (encoding === 'utf-8') return bytes.toString('utf8');
  return (await iconv()).decode(bytes, encoding, { stripBOM: false });
}
