import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DEFAULT_RESPONSE_LIMITS } from '../../core/response-limits.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { checkAborted } from './files.js';

// The lines of a data file a manifest lists, read as bytes: the file is fetched up to its listed
// size plus one byte, gunzipped as a stream when `.gz`, and split at LF and CR (as readline does,
// CRLF one break) without ever holding more than one line. Every reader of data files (verify's
// recount, the state rebuild, backfill) goes through here, so one hostile file meets the same caps.

/**
 * Longest line (one event) of a data file: an event is at most one audit page as the export reads
 * it (`maxResponseBytes.auditPage`, default 32 MiB), so no line the export wrote is longer.
 */
export const MAX_EVENT_LINE_BYTES = DEFAULT_RESPONSE_LIMITS.auditPage;
/** A `.gz` data file may inflate to this many times its size (audit NDJSON gzips some 5 to 15 times)... */
export const MAX_GZIP_RATIO = 100;
/** ...or to this much, whichever is more (64 MiB), so small files of near-identical events always pass. */
export const MIN_GZIP_INFLATED_BYTES = 64 * 1024 * 1024;

/** Most bytes a `.gz` data file of `bytes` bytes may inflate to. */
export const maxInflatedBytes = (bytes: number): number =>
  Math.max(MIN_GZIP_INFLATED_BYTES, bytes * MAX_GZIP_RATIO);

/** Why a data file is refused that holds more bytes than its manifest lists. */
export const longerThanListed = 'longer than its manifest says';

/** Bytes gunzipped at a time: large output chunks cost the stream far less per byte than zlib's 16 KiB. */
const INFLATE_CHUNK_BYTES = 256 * 1024;
/** Inflated bytes read ahead of the reader. */
const INFLATE_AHEAD_BYTES = 1024 * 1024;

/** A data file as its manifest lists it: its name and size (and its sha256, when known). */
export interface ListedData {
  name: string;
  bytes: number;
  /**
   * Its sha256 (hex): when given, the bytes read are hashed as they are read and a file whose
   * bytes differ (changed between a check and this read) is an `ArchiveFileError` once read.
   */
  sha256?: string;
}

/** Why a data file is refused whose bytes, as read, are not those its manifest lists. */
export const changedWhileRead = 'its bytes as read differ from its manifest (sha256): changed while read';

/**
 * The bytes of a listed data file, gunzipped when its name ends in `.gz`: at most `bytes + 1`
 * fetched (more than `bytes` is {@link longerThanListed}), at most {@link maxInflatedBytes}
 * inflated. `ArchiveFileError` past a cap, for data that does not gunzip, for bytes other than
 * the listed `sha256`, and as the store reports (`missing`).
 */
async function* plainBytes(store: ArchiveStore, file: ListedData): AsyncGenerator<Buffer> {
  const raw = await store.readStream(file.name, { maxBytes: file.bytes + 1 });
  const gzip = file.name.endsWith('.gz');
  const gunzip = gzip ? createGunzip({ chunkSize: INFLATE_CHUNK_BYTES }) : undefined;
  let fetched = 0;
  const hash = file.sha256 === undefined ? undefined : createHash('sha256');
  const tally = (chunk: Buffer) => {
    fetched += chunk.length;
    if (fetched > file.bytes) throw new ArchiveFileError(longerThanListed);
    hash?.update(chunk);
  };
  // Inflated bytes wait in a buffer of their own while the reader works on a block, so zlib (on
  // libuv's threads) inflates the next ones meanwhile instead of stopping at each chunk.
  const ahead = gunzip ? new PassThrough({ highWaterMark: INFLATE_AHEAD_BYTES }) : undefined;
  gunzip?.once('error', (error) => ahead?.destroy(error));
  const input: Readable = gunzip && ahead ? raw.pipe(gunzip).pipe(ahead) : raw;
  // Piped, the raw bytes are tallied as they go into gunzip (a listener beside the pipe's own).
  if (gunzip)
    raw.on('data', (chunk: Buffer) => {
      try {
        tally(chunk);
      } catch (error) {
        gunzip.destroy(error as Error);
      }
    });
  raw.once('error', (error) => gunzip?.destroy(error));
  const cap = gzip ? maxInflatedBytes(file.bytes) : Number.POSITIVE_INFINITY;
  let inflated = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (!gunzip) tally(chunk);
      inflated += chunk.length;
      if (inflated > cap) throw new ArchiveFileError(`inflates to more than ${cap} bytes (a gzip bomb?)`);
      yield chunk;
    }
    if (hash && (fetched !== file.bytes || hash.digest('hex') !== file.sha256))
      throw new ArchiveFileError(changedWhileRead);
  } catch (error) {
    if (!(error as { code?: string }).code?.startsWith('Z_')) throw error;
    throw new ArchiveFileError('not gzip data that ends whole');
  } finally {
    raw.destroy();
    gunzip?.destroy();
    ahead?.destroy();
  }
}

/**
 * Whole lines of a data file: `bytes` and where each non-empty line starts and ends in it
 * (`bounds[2k]`, `bounds[2k + 1]`, end exclusive, without its line break), in order.
 */
export interface LineBlock {
  bytes: Buffer;
  bounds: number[];
}

const LF = 10;
const CR = 13;
const tooLong = () =>
  new ArchiveFileError(`holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is)`);

/**
 * Where the non-empty lines of `bytes` start and end (split at LF and CR, CRLF one break);
 * `ArchiveFileError` for a line longer than {@link MAX_EVENT_LINE_BYTES}.
 */
function lineBounds(bytes: Buffer): number[] {
  const bounds: number[] = [];
  const add = (from: number, to: number) => {
    if (to === from) return;
    if (to - from > MAX_EVENT_LINE_BYTES) throw tooLong();
    bounds.push(from, to);
  };
  let at = 0;
  if (bytes.indexOf(CR) === -1) {
    // The common case (the archive writes LF only): one scan.
    for (let lf = bytes.indexOf(LF); lf !== -1; lf = bytes.indexOf(LF, at)) {
      add(at, lf);
      at = lf + 1;
    }
  } else {
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i];
      if (byte !== LF && byte !== CR) continue;
      add(at, i);
      at = i + 1;
    }
  }
  add(at, bytes.length);
  return bounds;
}

/**
 * About how many bytes a block holds (at most this and one line more): small enough that a reader's
 * text of one block (the search's first look) is a short-lived string, not a large object.
 */
export const BLOCK_BYTES = 64 * 1024;

/** The last LF or CR of `bytes` at or before `at` and at or after `floor`, or -1. */
function lastBreak(bytes: Buffer, at: number, floor: number, withCr: boolean): number {
  const cut = Math.max(bytes.lastIndexOf(LF, at), withCr ? bytes.lastIndexOf(CR, at) : -1);
  return cut >= floor ? cut : -1;
}

/** The first LF or CR of `bytes` at or after `at`, or -1. */
function nextBreak(bytes: Buffer, at: number, withCr: boolean): number {
  const lf = bytes.indexOf(LF, at);
  const cr = withCr ? bytes.indexOf(CR, at) : -1;
  return lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
}

/**
 * Cuts a stream of bytes into {@link LineBlock}s of whole lines of about {@link BLOCK_BYTES}: each
 * chunk up to its last line break, with what the chunks before left over; a line never held whole
 * beyond {@link MAX_EVENT_LINE_BYTES} (`ArchiveFileError`).
 */
export class LineBlocks {
  private rest: Buffer[] = [];
  private restBytes = 0;

  /** The blocks of whole lines `chunk` ends (none when it ends no line). */
  push(chunk: Buffer): LineBlock[] {
    const withCr = chunk.indexOf(CR) !== -1;
    const blocks: LineBlock[] = [];
    let at = 0;
    while (at < chunk.length) {
      const window = Math.min(chunk.length, at + Math.max(1, BLOCK_BYTES - this.restBytes));
      // Up to the window's last break; with none (a long line), up to the first break after it.
      let cut = lastBreak(chunk, window - 1, at, withCr);
      if (cut === -1) cut = nextBreak(chunk, window, withCr);
      if (cut === -1) break;
      const head = chunk.subarray(at, cut + 1);
      const bytes = this.rest.length === 0 ? head : Buffer.concat([...this.rest, head]);
      this.rest = [];
      this.restBytes = 0;
      blocks.push({ bytes, bounds: lineBounds(bytes) });
      at = cut + 1;
    }
    if (at < chunk.length) this.keep(chunk.subarray(at));
    return blocks;
  }

  /** The last line (one without a break after it), if any. */
  end(): LineBlock | undefined {
    if (this.restBytes === 0) return undefined;
    const bytes = Buffer.concat(this.rest);
    this.rest = [];
    this.restBytes = 0;
    return { bytes, bounds: lineBounds(bytes) };
  }

  private keep(part: Buffer): void {
    this.restBytes += part.length;
    if (this.restBytes > MAX_EVENT_LINE_BYTES) throw tooLong();
    this.rest.push(part);
  }
}

/**
 * Splits bytes into non-empty lines at LF and CR, refusing (`ArchiveFileError`) a line longer than
 * {@link MAX_EVENT_LINE_BYTES}. With `keep`, each line's bytes are handed to `onLine`; without,
 * only counted.
 */
export class LineSplitter {
  lines = 0;
  private readonly blocks = new LineBlocks();

  constructor(
    private readonly keep: boolean,
    private readonly onLine: (line: Buffer) => void = () => {},
  ) {}

  push(chunk: Buffer): void {
    for (const block of this.blocks.push(chunk)) this.take(block);
  }

  /** Ends the last line (one without a break after it). */
  end(): number {
    this.take(this.blocks.end());
    return this.lines;
  }

  private take(block: LineBlock | undefined): void {
    if (!block) return;
    const { bytes, bounds } = block;
    this.lines += bounds.length / 2;
    if (!this.keep) return;
    for (let i = 0; i < bounds.length; i += 2) this.onLine(bytes.subarray(bounds[i], bounds[i + 1]));
  }
}

/**
 * The lines of a listed data file a block at a time (as many whole lines as one read holds),
 * within the same caps as {@link countDataLines}. Stops with `AbortError` once `signal` fired.
 */
export async function* dataLineBlocks(
  store: ArchiveStore,
  file: ListedData,
  signal?: AbortSignal,
): AsyncGenerator<LineBlock> {
  const blocks = new LineBlocks();
  for await (const chunk of plainBytes(store, file)) {
    checkAborted(signal);
    for (const block of blocks.push(chunk)) if (block.bounds.length > 0) yield block;
  }
  const last = blocks.end();
  if (last && last.bounds.length > 0) yield last;
}

/**
 * Non-empty lines of a listed data file, counted from its bytes; `ArchiveFileError` with the
 * reason when it cannot be read within the caps. Stops with `AbortError` once `signal` fired.
 */
export async function countDataLines(
  store: ArchiveStore,
  file: ListedData,
  signal?: AbortSignal,
): Promise<number> {
  let lines = 0;
  for await (const { bounds } of dataLineBlocks(store, file, signal)) lines += bounds.length / 2;
  return lines;
}

/** Each non-empty line of a listed data file as text, within the same caps as {@link countDataLines}. */
export async function* dataLines(store: ArchiveStore, file: ListedData): AsyncGenerator<string> {
  for await (const line of dataLineBytes(store, file)) yield line.toString('utf8');
}

/**
 * Each non-empty line of a listed data file as its bytes (without the line break), within the
 * same caps as {@link countDataLines}. Stops with `AbortError` once `signal` fired.
 */
export async function* dataLineBytes(
  store: ArchiveStore,
  file: ListedData,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  for await (const { bytes, bounds } of dataLineBlocks(store, file, signal))
    for (let i = 0; i < bounds.length; i += 2) yield bytes.subarray(bounds[i], bounds[i + 1]);
}
