import type { AuditEvent } from '../../audit/schemas.js';
import { matchesAuditQuery } from '../../audit/search/match.js';
import { type AuditQuery, parseAuditQuery } from '../../audit/search/query.js';
import { SvcError } from '../../core/errors/error-classes.js';
import { dataLineBytes } from '../audit-archive/data-lines.js';
import { checkAborted, hashObject } from '../audit-archive/files.js';
import type { ManifestFile } from '../audit-archive/manifest.js';
import { verifyArchive } from '../audit-archive/verify.js';
import type { ArchiveProblemKind, VerifyArchiveResult } from '../audit-archive/verify-result.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';
import { type ArchiveReadFooter, coverage, meets } from './footer.js';
import { cannotMatch } from './prefilter.js';

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
  /** The event (its line parsed when first read: a reader that only needs `line` never parses it). */
  readonly event: AuditEvent;
  /** The archived line's bytes, without its line break. */
  line: Buffer;
  /** The data file it was read from. */
  file: string;
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
 * (The implementation of `searchAuditArchive`, job.ts, which loads it at the first read.)
 */
export function searchArchive(dir: string, options: ArchiveSearchOptions = {}): ArchiveSearch {
  const query = typeof options.query === 'string' ? parseAuditQuery(options.query) : options.query;
  // Lines that cannot match are passed over without parsing them (prefilter.ts); the rest are matched exactly.
  const ruledOut = query && cannotMatch(query);
  let footer: ArchiveReadFooter | undefined;
  return {
    get footer() {
      return footer;
    },
    async *[Symbol.asyncIterator]() {
      const store = await openArchiveStore(dir, options);
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
            for await (const line of checkedLines(store, file, options.signal)) {
              let event: AuditEvent | undefined;
              const parsed = () => {
                event ??= parseLine(store, file, line);
                return event;
              };
              if (!inside) {
                const at = Date.parse(parsed().occurredAt);
                if (!(at >= from && at <= to)) continue;
              }
              tally.events += 1;
              if (query) {
                if (ruledOut?.(line)) continue;
                if (!matchesAuditQuery(query, parsed())) continue;
              }
              tally.matched += 1;
              yield {
                get event() {
                  return parsed();
                },
                line,
                file: file.name,
              };
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
 * The lines of a listed data file, once its size and sha256 match its manifest (read to its end
 * first, so no line of a changed file is handed on); its lines counted against the manifest after.
 */
async function* checkedLines(
  store: ArchiveStore,
  file: ListedFile,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
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
    for await (const line of dataLineBytes(store, file, signal)) {
      lines += 1;
      if (lines > file.events) throw refuse(`holds more than the ${file.events} events listed`);
      yield line;
    }
  } catch (error) {
    if (error instanceof ArchiveFileError) throw refuse(error.message);
    throw error;
  }
  if (lines !== file.events) throw refuse(`holds ${lines} events, not the ${file.events} listed`);
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
