import type { AuditEvent } from '../../audit/schemas.js';
import { matchesAuditQuery, membersRead } from '../../audit/search/match.js';
import { type AuditQuery, parseAuditQuery } from '../../audit/search/query.js';
import { SvcError } from '../../core/errors/error-classes.js';
import { dataLineBlocks, type LineBlock } from '../audit-archive/data-lines.js';
import { checkAborted, hashObject } from '../audit-archive/files.js';
import type { ManifestFile } from '../audit-archive/manifest.js';
import { verifyArchive } from '../audit-archive/verify.js';
import type { ArchiveProblemKind, VerifyArchiveResult } from '../audit-archive/verify-result.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';
import { type ArchiveReadFooter, coverage, meets } from './footer.js';
import { type LineReader, lineMembers, lineReader } from './line-members.js';
import { type LineLook, prefilter } from './prefilter.js';

/** Options of {@link searchAuditArchive}. */
export interface ArchiveSearchOptions extends ArchiveStoreOptions {
  /** The query (`parseAuditQuery`'s language, or its result). Default: every event. */
  query?: string | AuditQuery;
  /** Start of the range read, ISO 8601, included. Default: the archive's start. */
  from?: string;
  /** End of the range read, ISO 8601, included. Default: the archive's head. */
  to?: string;
  /** Stops between reads with `AbortError`. */
  signal?: AbortSignal;
}

/** One event that matched, with its line exactly as archived. */
export interface ArchiveMatch {
  /** The event: its line parsed on each read (keep it in a variable), so a reader that only needs `line` never parses it. */
  readonly event: AuditEvent;
  /** The archived line's bytes, without its line break. */
  line: Buffer;
  /** The data file it was read from. */
  file: string;
  /** That file's sha256, as its manifest lists it (and as it was checked). */
  fileSha256: string;
}

/** A search over an archive: its matches as they are read, then what it read. */
export interface ArchiveSearch extends AsyncIterable<ArchiveMatch> {
  /** What the search read (the head, the range, whether it is whole): set once the matches were read to their end, or the reader stopped early (`complete` false). */
  readonly footer: ArchiveReadFooter | undefined;
}

/** Problems of the chain that make its data untrustworthy: the search stops on them (gaps only mark the range not whole). */
const TAMPERED: ReadonlySet<ArchiveProblemKind> = new Set([
  'missing-manifest',
  'bad-manifest',
  'broken-link',
  'unsafe-file',
]);

/** A listed data file of the chain with the manifest that lists it. */
interface ListedFile extends ManifestFile {
  manifest: string;
}

/**
 * Searches an archive written by `svc audit sync` (a folder or `s3://bucket/prefix`): the chain
 * of manifests is walked as verify walks it, and each data file that holds events of the range is
 * checked against its manifest (size and sha256 before a line of it is read, its events counted
 * after) and read as a stream, newest run first, each file newest event first; memory does not
 * grow with the archive. Conflicts files (events kept apart) are not searched.
 *
 * A changed, missing or unreadable file or manifest, or a broken chain, is an `SvcError` code
 * `io` naming it: a tampered archive is never counted. Open gaps and holes in the range do not
 * stop the search: `footer.whole` is false and `footer.incomplete` names them.
 *
 * (The implementation of `searchAuditArchive`, job.ts, which loads it at the first read; `opened`
 * is the archive's store when the caller has opened it already.)
 */
export function searchArchive(
  dir: string,
  options: ArchiveSearchOptions = {},
  opened?: ArchiveStore,
): ArchiveSearch {
  const query = typeof options.query === 'string' ? parseAuditQuery(options.query) : options.query;
  // Lines that cannot match are passed over without parsing them (prefilter.ts); the rest are matched exactly.
  const firstLook = query && prefilter(query);
  // A line is parsed only as far as the range and the query read it (line-members.ts).
  const wanted = (inside: boolean) =>
    lineReader(
      [...(inside ? [] : ['occurredAt']), ...(query ? membersRead(query) : [])],
      ['id', 'occurredAt'],
    );
  const readers = { inside: wanted(true), partly: wanted(false) };
  let footer: ArchiveReadFooter | undefined;
  return {
    get footer() {
      return footer;
    },
    async *[Symbol.asyncIterator]() {
      const store = opened ?? (await openArchiveStore(dir, options));
      const listed: ListedFile[] = [];
      const walked = await verifyArchive(
        store,
        { ...(options.signal && { signal: options.signal }) },
        {
          checkFiles: false,
          onManifest: ({ name, manifest }) => {
            for (const file of manifest.files) listed.push({ ...file, manifest: name });
          },
        },
      );
      refuseTampered(dir, walked);
      const covered = coverage(walked, options);
      const tally = { files: 0, events: 0, matched: 0 };
      let complete = false;
      try {
        if (covered.range) {
          const [from, to] = [Date.parse(covered.range.from), Date.parse(covered.range.to)];
          // Newest run first: the manifests were passed oldest first.
          for (const file of listed.reverse()) {
            if (!file.firstOccurredAt || !file.lastOccurredAt) continue;
            if (!meets(from, to, file.lastOccurredAt, file.firstOccurredAt)) continue;
            tally.files += 1;
            // A file whose events all lie in the range (its manifest says) needs no look at their times.
            const inside = Date.parse(file.lastOccurredAt) >= from && Date.parse(file.firstOccurredAt) <= to;
            const wanted = inside ? readers.inside : readers.partly;
            const scan = { store, file, query, firstLook, inside, from, to, wanted };
            for await (const block of checkedBlocks(store, file, options.signal)) {
              const { found, readBy, read } = blockMatches(block, scan);
              const before = tally.events;
              for (const [k, match] of found.entries()) {
                // What a reader that stops at this match has read: the block's events up to it.
                tally.events = before + (readBy[k] as number);
                tally.matched += 1;
                yield match;
              }
              tally.events = before + read;
            }
          }
        }
        complete = true;
      } finally {
        // Also when the caller stops early (a limit): what was read so far, marked as such.
        footer = {
          archive: dir,
          head: walked.head,
          ...covered,
          whole: covered.incomplete.length === 0,
          complete,
          ...tally,
        };
      }
    },
  };
}

/** What {@link blockMatches} needs to know of the search and the file. */
interface BlockScan {
  store: ArchiveStore;
  file: ListedFile;
  query: AuditQuery | undefined;
  firstLook: ((bytes: Buffer) => LineLook) | undefined;
  /** Every event of the file lies in the range (its manifest says so). */
  inside: boolean;
  from: number;
  to: number;
  /** What is read of each line: `occurredAt` when the file is not wholly inside, the members the query reads, and that `id` and `occurredAt` are strings. */
  wanted: LineReader;
}

/**
 * The matches of one block of lines, each with how many of the block's events in the range were
 * read up to it (`readBy`), and how many were read in all (`read`). A line is read only when its
 * time must be looked at (a file not wholly inside the range) or the first look lets it through,
 * and then only its members that the range and the query read (the match parses its event when
 * a reader asks for it).
 */
function blockMatches(
  { bytes, bounds }: LineBlock,
  { store, file, query, firstLook, inside, from, to, wanted }: BlockScan,
): { found: ArchiveMatch[]; readBy: number[]; read: number } {
  const look = firstLook?.(bytes);
  const found: ArchiveMatch[] = [];
  const readBy: number[] = [];
  let read = 0;
  for (let i = 0; i < bounds.length; i += 2) {
    const [start, end] = [bounds[i] as number, bounds[i + 1] as number];
    // The members the range and the query read (or the whole event, when the line is parsed whole).
    let seen: Seen | undefined;
    if (!inside) {
      seen = readLine(store, file, bytes, start, end, wanted);
      const at = Date.parse(seen.members.occurredAt as string);
      if (!(at >= from && at <= to)) continue;
    }
    read += 1;
    if (query) {
      if (look && !look(start, end)) continue;
      seen ??= readLine(store, file, bytes, start, end, wanted);
      if (!matchesAuditQuery(query, seen.members as unknown as AuditEvent)) continue;
    }
    found.push(matchOf(store, file, bytes.subarray(start, end), seen?.event));
    readBy.push(read);
  }
  return { found, readBy, read };
}

/** A line as far as it was read: the members wanted, and the event when it was parsed whole. */
interface Seen {
  members: Record<string, unknown>;
  event: AuditEvent | undefined;
}

/**
 * The members `wanted` parses of the line `bytes[start, end)` (line-members.ts), or the whole
 * event when the line cannot be read in part (or lacks a string `id` or `occurredAt`, which
 * {@link parseLine} then names as a changed archive).
 */
function readLine(
  store: ArchiveStore,
  file: ListedFile,
  bytes: Buffer,
  start: number,
  end: number,
  wanted: LineReader,
): Seen {
  const members = lineMembers(bytes, start, end, wanted);
  if (members) return { members, event: undefined };
  const event = parseLine(store, file, bytes.subarray(start, end));
  return { members: event as unknown as Record<string, unknown>, event };
}

/** Stops the search on a chain that cannot be trusted, naming the first problem. */
function refuseTampered(dir: string, walked: VerifyArchiveResult): void {
  const problem = walked.problems.find((p) => TAMPERED.has(p.kind));
  if (!problem) return;
  if (problem.kind === 'missing-manifest' && problem.file === '.')
    throw new SvcError(
      `${dir}: no manifest: not an archive written by svc audit sync, or an empty one`,
      'io',
    );
  throw new SvcError(
    `${dir}: ${problem.message}: nothing was searched (svc audit verify lists every problem)`,
    'io',
  );
}

/**
 * The lines of a listed data file a block at a time, once its size and sha256 match its manifest
 * (read to its end first, so no line of a changed file is handed on); its lines counted against the
 * manifest as they come and at the end.
 */
async function* checkedBlocks(
  store: ArchiveStore,
  file: ListedFile,
  signal: AbortSignal | undefined,
): AsyncGenerator<LineBlock> {
  const refuse = (why: string) =>
    new SvcError(
      `${store.describe(file.name)}: ${why} (listed in ${file.manifest}): the archive was changed`,
      'io',
    );
  checkAborted(signal);
  let found: { sha256: string; bytes: number };
  try {
    found = await hashObject(store, file.name, signal, file.bytes + 1);
  } catch (error) {
    if (error instanceof ArchiveFileError) throw refuse(error.message);
    throw error;
  }
  if (found.bytes !== file.bytes || found.sha256 !== file.sha256)
    throw refuse('sha256 or size differs from its manifest');
  let lines = 0;
  try {
    for await (const block of dataLineBlocks(store, file, signal)) {
      lines += block.bounds.length / 2;
      if (lines > file.events) throw refuse(`holds more than the ${file.events} events listed`);
      yield block;
    }
  } catch (error) {
    if (error instanceof ArchiveFileError) throw refuse(error.message);
    throw error;
  }
  if (lines !== file.events) throw refuse(`holds ${lines} events, not the ${file.events} listed`);
}

/**
 * A match whose event is parsed from its line each time it is read (a reader of `line` alone
 * never parses it). Not cached on the match: a block's matches outlive a few young-generation
 * collections while a slow reader (a ship waiting on the network) works through them, so V8 moves
 * them to the old generation, and an event cached there would be moved with them. Measured on
 * 200,000 events: 186 MB promoted with a cache, 40 MB without.
 */
function matchOf(
  store: ArchiveStore,
  file: ListedFile,
  line: Buffer,
  parsed: AuditEvent | undefined,
): ArchiveMatch {
  return new LineMatch(store, file, line, parsed);
}

/**
 * {@link matchOf}'s match: a class, so that its `event` getter lives on the prototype and a match
 * costs one small object (an object literal with a getter costs a closure and a slower shape each).
 */
class LineMatch implements ArchiveMatch {
  readonly file: string;
  readonly fileSha256: string;
  // Private fields (#): a match logged or turned into JSON shows its line and file, never the
  // store (which may hold a bucket's credentials).
  readonly #store: ArchiveStore;
  readonly #listed: ListedFile;
  readonly #parsed: AuditEvent | undefined;

  constructor(
    store: ArchiveStore,
    listed: ListedFile,
    readonly line: Buffer,
    parsed: AuditEvent | undefined,
  ) {
    this.#store = store;
    this.#listed = listed;
    this.#parsed = parsed;
    this.file = listed.name;
    this.fileSha256 = listed.sha256;
  }

  get event(): AuditEvent {
    return this.#parsed ?? parseLine(this.#store, this.#listed, this.line);
  }

  /** As JSON: the event, its line, file and the file's sha256 (what a plain object of them gave). */
  toJSON(): { event: AuditEvent; line: Buffer; file: string; fileSha256: string } {
    return { event: this.event, line: this.line, file: this.file, fileSha256: this.fileSha256 };
  }
}

/** An archived line as an event; a line that is not one is a changed archive. */
function parseLine(store: ArchiveStore, file: ListedFile, line: Buffer): AuditEvent {
  let event: unknown;
  try {
    event = JSON.parse(line.toString('utf8'));
  } catch {
    event = undefined;
  }
  const e = event as Partial<AuditEvent> | undefined;
  if (!e || typeof e !== 'object' || typeof e.id !== 'string' || typeof e.occurredAt !== 'string')
    throw new SvcError(
      `${store.describe(file.name)}: a line is not an audit event (listed in ${file.manifest})`,
      'io',
    );
  return e as AuditEvent;
}
