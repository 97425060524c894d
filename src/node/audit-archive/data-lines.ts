import type { Readable } from 'node:stream';
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

/** A data file as its manifest lists it: its name and size. */
export interface ListedData {
  name: string;
  bytes: number;
}

/**
 * The bytes of a listed data file, gunzipped when its name ends in `.gz`: at most `bytes + 1`
 * fetched (more than `bytes` is {@link longerThanListed}), at most {@link maxInflatedBytes}
 * inflated. `ArchiveFileError` past a cap, for data that does not gunzip, and as the store
 * reports (`missing`).
 */
async function* plainBytes(store: ArchiveStore, file: ListedData): AsyncGenerator<Buffer> {
  const raw = await store.readStream(file.name, { maxBytes: file.bytes + 1 });
  const gzip = file.name.endsWith('.gz');
  const gunzip = gzip ? createGunzip() : undefined;
  let fetched = 0;
  const tally = (chunk: Buffer) => {
    fetched += chunk.length;
    if (fetched > file.bytes) throw new ArchiveFileError(longerThanListed);
  };
  const input: Readable = gunzip ? raw.pipe(gunzip) : raw;
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
  } catch (error) {
    if (!(error as { code?: string }).code?.startsWith('Z_')) throw error;
    throw new ArchiveFileError('not gzip data that ends whole');
  } finally {
    raw.destroy();
    gunzip?.destroy();
  }
}

/**
 * Splits bytes into non-empty lines at LF and CR, refusing (`ArchiveFileError`) a line longer than
 * {@link MAX_EVENT_LINE_BYTES}. With `keep`, each line's bytes are handed to `onLine`; without,
 * only counted (no line is copied).
 */
export class LineSplitter {
  lines = 0;
  private open: Buffer[] = [];
  private openBytes = 0;

  constructor(
    private readonly keep: boolean,
    private readonly onLine: (line: Buffer) => void = () => {},
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    let lf = chunk.indexOf(10);
    let cr = chunk.indexOf(13);
    while (at < chunk.length) {
      if (lf !== -1 && lf < at) lf = chunk.indexOf(10, at);
      if (cr !== -1 && cr < at) cr = chunk.indexOf(13, at);
      const cut = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const end = cut === -1 ? chunk.length : cut;
      this.take(chunk, at, end);
      if (cut === -1) return;
      this.close();
      at = cut + 1;
    }
  }

  /** Ends the last line (one without a break after it). */
  end(): number {
    this.close();
    return this.lines;
  }

  private take(chunk: Buffer, from: number, to: number): void {
    if (to === from) return;
    this.openBytes += to - from;
    if (this.openBytes > MAX_EVENT_LINE_BYTES)
      throw new ArchiveFileError(`holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is)`);
    if (this.keep) this.open.push(chunk.subarray(from, to));
  }

  private close(): void {
    if (this.openBytes === 0) return;
    this.lines += 1;
    if (this.keep) this.onLine(this.open.length === 1 ? (this.open[0] as Buffer) : Buffer.concat(this.open));
    this.open = [];
    this.openBytes = 0;
  }
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
  const splitter = new LineSplitter(false);
  for await (const chunk of plainBytes(store, file)) {
    checkAborted(signal);
    splitter.push(chunk);
  }
  return splitter.end();
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
  let ready: Buffer[] = [];
  const splitter = new LineSplitter(true, (line) => ready.push(line));
  for await (const chunk of plainBytes(store, file)) {
    checkAborted(signal);
    splitter.push(chunk);
    yield* ready;
    ready = [];
  }
  splitter.end();
  yield* ready;
}
