import { resolve as resolvePath } from 'node:path';
import type { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { AuditEventFormat } from '../../audit/normalise/format.js';
import { followCursors, PageGuard } from '../../audit/paginate.js';
import { resolveRange } from '../../audit/query.js';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import type { WritableLike } from '../../core/node-shapes.js';
import type { PatienceOptions } from '../../core/patience.js';
import { Checkpointer, type SyncPolicy } from '../fs/checkpoint.js';
import { DEFAULT_FILE_MODE, DurableOutput } from '../fs/output-file.js';
import { formattedPageLines } from './formatted-page.js';
import { LineBuffer, pageLines } from './ndjson-page.js';
import { EarlyPageFetcher, type PageQuery } from './page-prefetch.js';
import { type ExportEvent, pageBuffers, type RawExportPage, rawExportPage } from './pages.js';
import { checkExportPaths } from './paths.js';
import { type ExportSink, keptEvents } from './sink.js';
import { type ExportState, readExportState } from './state.js';

/** Page size of an export when none is given: the largest the API serves. */
export const DEFAULT_EXPORT_PAGE_SIZE = 1000;

/** Options of `exportAuditEvents`; a throttled (429) or failing (5xx) page is retried for `retryForMs` (default 2 minutes). */
export interface ExportOptions extends PatienceOptions {
  /** Start of the range; default 24 hours before `to`. Fixed once and recorded in the state file. */
  from?: string | Date;
  /** End of the range; default now (client clock), fixed once. */
  to?: string | Date;
  /** A file path, or a writable stream (a stream cannot be truncated on resume). */
  output: string | WritableLike;
  /**
   * State file, replaced atomically at each checkpoint (see `sync`). When it exists, the export
   * resumes from it. Without it, nothing can be resumed.
   */
  statePath?: string;
  /**
   * How often the output is fsynced and the state file replaced: after `everySteps` pages or
   * `everyMs` milliseconds, whichever comes first, and always at the end and on interruption.
   * Default `{ everySteps: 32, everyMs: 1000 }`. A crash repeats at most the pages since the last
   * checkpoint (the resume truncates them away), never more.
   */
  sync?: SyncPolicy;
  /**
   * Replace an output file that holds data although no state file names it (not this run's own).
   * Without it such a file is refused (`OutputPathError`, nothing written). Default false.
   */
  force?: boolean;
  /** Mode of the files the export creates (output, state); events hold personal data. Default 0o600. */
  fileMode?: number;
  /** Writes gzip: one gzip member per page, so a resumed file is still one valid stream. Default false. */
  gzip?: boolean;
  /** How each event is written: `raw` (the line as received), `ecs` or `ocsf` (normalised, one document per line). Default `raw`. */
  format?: AuditEventFormat;
  /** With `format` ecs or ocsf: each document holds the event as received (`event.original`, `raw_data`). Default false. */
  keepOriginal?: boolean;
  /** Events per request, 1 to 1000. Default 1000; a resumed export keeps the recorded size. */
  pageSize?: number;
  /** Stops after the current page; the promise rejects with `AbortError`, the state stays resumable. */
  signal?: AbortSignal;
  /** Called after every page with the counts so far (the state file may lag behind, see `sync`). */
  onProgress?: (progress: ExportProgress) => void;
  /**
   * Receives the events as they are written (see {@link ExportSink}), for a caller that would
   * otherwise read the output back: the audit sync writes its run from them. Default: none.
   */
  sink?: ExportSink;
}

/** Counts after a page. */
export interface ExportProgress {
  pages: number;
  events: number;
  bytes: number;
  /** `totalElements` of the first page. */
  totalElements: number | null;
}

/** What an export did. */
export interface ExportResult extends ExportProgress {
  from: string;
  to: string;
  /** true when the run continued from a state file. */
  resumed: boolean;
  /** Events the output already held when this run started (0 unless resumed). */
  previousEvents: number;
  /** true when the state file already recorded a finished export (nothing was fetched). */
  alreadyComplete: boolean;
  /** Whether the events written equal `totalElements` of the first page. */
  countMatches: boolean;
  /** Duplicate ids dropped (the same id delivered twice). */
  duplicatesDropped: number;
  lastId: string | null;
}

/**
 * Fetches one page of the fixed range: the envelope checked, events as received. The exporter
 * asks for page k+1 while it writes page k, only after page k-1 is written: a fetcher may reuse
 * the memory of page k-1 for page k+1 (or of page k-2 for a request it starts one page early).
 */
export type RawPageFetcher = (query: PageQuery, signal: AbortSignal | undefined) => Promise<RawExportPage>;

const iso = (value: string | Date | undefined) => (value instanceof Date ? value.toISOString() : value);
const sameInstant = (a: string, b: string) => Date.parse(a) === Date.parse(b);

function checkResumable(
  state: ExportState,
  options: ExportOptions,
  outputName: string,
  statePath: string,
): void {
  const mismatch = (what: string) =>
    new SvcError(
      `State file ${statePath} belongs to another export (${what}); use another state file or delete it`,
      'state_mismatch',
    );
  const from = iso(options.from);
  const to = iso(options.to);
  if (to !== undefined && !sameInstant(to, state.to)) throw mismatch(`to ${state.to}`);
  if (from !== undefined && !sameInstant(from, state.from)) throw mismatch(`from ${state.from}`);
  if (Boolean(options.gzip) !== state.gzip) throw mismatch(state.gzip ? 'gzip' : 'no gzip');
  if ((options.format ?? 'raw') !== (state.format ?? 'raw'))
    throw mismatch(`format ${state.format ?? 'raw'}`);
  if (Boolean(options.keepOriginal) !== Boolean(state.keepOriginal))
    throw mismatch(state.keepOriginal ? 'keep original' : 'no original kept');
  if (options.pageSize !== undefined && options.pageSize !== state.pageSize)
    throw mismatch(`page size ${state.pageSize}`);
  if (state.output !== outputName) throw mismatch(`output ${state.output}`);
}

/** What an export started from: kept apart, since the state continues the previous one in place. */
interface ExportStart {
  /** The state the export continues (its state file's), or a new one. */
  state: ExportState;
  resumed: boolean;
  previousEvents: number;
  alreadyComplete: boolean;
}

/** The state of an export that starts afresh over `range`. */
function newExportState(
  range: { from: string; to: string },
  options: ExportOptions,
  outputName: string,
): ExportState {
  return {
    version: 1,
    from: range.from,
    to: range.to,
    pageSize: options.pageSize ?? DEFAULT_EXPORT_PAGE_SIZE,
    gzip: Boolean(options.gzip),
    ...(options.format && options.format !== 'raw' && { format: options.format }),
    ...(options.keepOriginal && { keepOriginal: true }),
    output: outputName,
    cursor: null,
    complete: false,
    bytes: 0,
    events: 0,
    pages: 0,
    lastId: null,
    totalElements: null,
    updatedAt: new Date().toISOString(),
  };
}

/**
 * Checks the export's files and, when its state file exists, that it belongs to this export;
 * then the state to continue (or a new one over the resolved range).
 */
async function startExport(options: ExportOptions): Promise<ExportStart> {
  const { statePath } = options;
  const outputName = typeof options.output === 'string' ? resolvePath(options.output) : '-';
  if (typeof options.output === 'string') await checkExportPaths(options.output, statePath);
  const previous = statePath ? await readExportState(statePath) : undefined;
  if (previous && statePath) checkResumable(previous, options, outputName, statePath);
  const range = previous ?? resolveRange(iso(options.from), iso(options.to));
  if (Date.parse(range.from) > Date.parse(range.to)) {
    throw new SvcError(`from (${range.from}) lies after to (${range.to})`, 'config');
  }
  return {
    state: previous ?? newExportState(range, options, outputName),
    resumed: previous !== undefined,
    previousEvents: previous?.events ?? 0,
    alreadyComplete: previous?.complete === true,
  };
}

/** What the export did, from its state now and what it started from. */
function exportResult(start: ExportStart, duplicatesDropped: number): ExportResult {
  const { state } = start;
  return {
    from: state.from,
    to: state.to,
    pages: state.pages,
    events: state.events,
    bytes: state.bytes,
    totalElements: state.totalElements,
    resumed: start.resumed,
    previousEvents: start.previousEvents,
    alreadyComplete: start.alreadyComplete,
    countMatches: state.totalElements === state.events,
    duplicatesDropped,
    lastId: state.lastId,
  };
}

/** The id of the last event of a page that is kept (not a dropped duplicate), if any has one. */
function lastKeptId(content: readonly ExportEvent[], dropped: Set<number> | undefined): string | undefined {
  for (let k = content.length - 1; k >= 0; k--) {
    const id = (content[k] as ExportEvent).id;
    if (id !== undefined && !dropped?.has(k)) return id;
  }
  return undefined;
}

/**
 * Fetches the range's pages from the state's cursor on and hands each page's kept lines to
 * `append`, moving the state on and checkpointing after each; returns the duplicates dropped.
 */
async function writePages(
  fetchPage: RawPageFetcher,
  state: ExportState,
  append: (chunk: Uint8Array) => Promise<void>,
  checkpoints: Checkpointer<ExportState>,
  options: ExportOptions,
): Promise<number> {
  const { signal } = options;
  let duplicatesDropped = 0;
  const lines = new LineBuffer();
  // The guard that checks each page also finds the duplicate ids: the copies are dropped here.
  const guard = new PageGuard(state.cursor ?? undefined, { countedBefore: state.events });
  const pages = followCursors(
    (cursor) => fetchPage({ from: state.from, to: state.to, pageSize: state.pageSize, cursor }, signal),
    state.cursor ?? undefined,
    true,
    guard,
  );
  for await (const page of pages) {
    const dropped = guard.duplicates;
    const written = page.content.length - (dropped?.size ?? 0);
    duplicatesDropped += dropped?.size ?? 0;
    const lastId = lastKeptId(page.content, dropped) ?? state.lastId;
    if (written > 0) {
      const format = state.format ?? 'raw';
      const view =
        format === 'raw'
          ? pageLines(page, dropped, lines)
          : formattedPageLines(page, dropped, lines, format, Boolean(state.keepOriginal));
      const chunk = state.gzip ? gzipSync(view) : view;
      await append(chunk);
      state.bytes += chunk.length;
      await options.sink?.page(keptEvents(page, dropped));
    }
    state.totalElements ??= page.totalElements;
    state.events += written;
    state.pages += 1;
    state.lastId = lastId;
    state.cursor = page.nextCursor;
    state.complete = page.nextCursor === null;
    if (state.complete) await checkpoints.commit();
    else await checkpoints.step();
    options.onProgress?.({
      pages: state.pages,
      events: state.events,
      bytes: state.bytes,
      totalElements: state.totalElements,
    });
    if (!state.complete && signal?.aborted) throw new AbortError('The export was interrupted');
  }
  return duplicatesDropped;
}

/**
 * Exports every event of the range as NDJSON, newest first, each line the event's JSON exactly as
 * received (not parsed and serialized again, so numbers and escapes are kept byte for byte).
 * Each page is appended; at each checkpoint (grouped by `sync`) the output is fsynced, then the
 * state file naming that size and the matching cursor is replaced atomically. A resumed run
 * truncates the output to the checkpointed size and continues from the checkpointed cursor, so the
 * result is byte-identical to an uninterrupted run.
 */
export async function runExport(fetchPage: RawPageFetcher, options: ExportOptions): Promise<ExportResult> {
  const { statePath, signal } = options;
  const start = await startExport(options);
  const { state } = start;
  const held = start.resumed ? { bytes: state.bytes, events: state.events } : { bytes: 0, events: 0 };
  if (start.alreadyComplete) {
    await options.sink?.start(held);
    return exportResult(start, 0);
  }
  if (signal?.aborted) throw new AbortError('The export was interrupted before it started');

  const file =
    typeof options.output === 'string'
      ? await DurableOutput.open(options.output, start.resumed ? state.bytes : undefined, {
          force: options.force,
          mode: options.fileMode ?? DEFAULT_FILE_MODE,
        })
      : undefined;
  const stream = typeof options.output === 'string' ? undefined : (options.output as Writable);
  const append = file
    ? (chunk: Uint8Array) => file.append(chunk)
    : (chunk: Uint8Array) => writeToStream(stream as Writable, chunk);
  const checkpoints = new Checkpointer({
    statePath,
    outputs: [file],
    state: () => ({ ...state, updatedAt: new Date().toISOString() }),
    policy: options.sync,
  });
  let failed = false;
  let duplicatesDropped: number;
  try {
    if (!start.resumed) await checkpoints.commit();
    await options.sink?.start(held);
    duplicatesDropped = await writePages(fetchPage, state, append, checkpoints, options);
  } catch (error) {
    failed = true;
    // Keep what was fetched: the state names the last whole page, the output is synced up to it.
    await checkpoints.commit().catch(() => {});
    throw error;
  } finally {
    if (failed) await file?.close().catch(() => {});
    else await file?.close();
  }
  return exportResult(start, duplicatesDropped);
}

/** Waits until a stream took the chunk; a copy, since a stream may hold on to it (a PassThrough queues it as is). */
function writeToStream(stream: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.write(Buffer.from(chunk), (error) => (error ? reject(error) : resolve()));
  });
}

/** Fetches the raw bytes of one page into `bodyBuffer(size)` (the slot's reused buffer). */
export type PageBytes = (
  query: PageQuery,
  signal: AbortSignal | undefined,
  bodyBuffer: (size: number) => Uint8Array,
) => Promise<Uint8Array>;

/**
 * What `exportAuditEvents` runs: {@link runExport} on pages fetched ahead by an
 * {@link EarlyPageFetcher}.
 */
export async function exportPages(fetchBytes: PageBytes, options: ExportOptions): Promise<ExportResult> {
  // The exporter writes page k while page k+1 is scanned and page k+2 is on its way (asked for
  // from page k+1's tail): three buffers, used in turn, hold every page, so no new buffer per
  // page is left for the garbage collector to find.
  const buffers = pageBuffers();
  const early = new EarlyPageFetcher((query, signal, slot) =>
    fetchBytes(query, signal, (size) => buffers(slot, size)),
  );
  try {
    return await runExport(async (query, signal) => rawExportPage(await early.bytes(query, signal)), options);
  } finally {
    early.close();
  }
}
