import { parseAuditQuery } from '../../audit/search/query.js';
import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveSearch, ArchiveSearchOptions } from './archive-search.js';

export type { ArchiveMatch, ArchiveSearch, ArchiveSearchOptions } from './archive-search.js';
export type { ArchiveReadFooter } from './footer.js';

/** `from`/`to` checked: timestamps, in order. */
function checkRange(options: Pick<ArchiveSearchOptions, 'from' | 'to'>): void {
  const parse = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new SvcError(`${name} is not an ISO 8601 timestamp: ${value}`, 'config');
    return ms;
  };
  const from = parse(options.from, 'from');
  const to = parse(options.to, 'to');
  if (from !== undefined && to !== undefined && from > to)
    throw new SvcError(`from (${options.from}) lies after to (${options.to})`, 'config');
}

/**
 * Searches an archive written by `syncAuditArchive` (a folder or `s3://bucket/prefix`) for the
 * events of a range that match a query, as they are read: the chain of manifests is walked as
 * `verifyAuditArchive` walks it, and each data file holding events of the range is checked against
 * its manifest (size and sha256 before any line of it is handed on, its events counted after).
 * Matches come newest run first, each file newest event first, each with its line exactly as
 * archived; memory does not grow with the archive. Once they are read to the end, `footer` says
 * what was read: the head, the range covered, whether it is whole (open gaps and holes named).
 *
 * A changed, missing or unreadable data file or manifest, or a broken chain, ends the iteration
 * with an `SvcError` code `io` naming it: a tampered archive is never counted. The archive code
 * loads at the first read.
 *
 * @throws {SvcError} code `query` for a query that cannot be parsed (see `parseAuditQuery`),
 *   `config` for a bad range; both at the call.
 * @example
 * const search = searchAuditArchive('audit/', { query: 'actor.type:API_KEY -action:read', from: '2026-11-01' });
 * for await (const { event } of search) console.log(event.occurredAt, event.type);
 * if (!search.footer?.whole) console.warn(search.footer?.incomplete.join('\n'));
 */
export function searchAuditArchive(dir: string, options: ArchiveSearchOptions = {}): ArchiveSearch {
  const query = typeof options.query === 'string' ? parseAuditQuery(options.query) : options.query;
  checkRange(options);
  let inner: ArchiveSearch | undefined;
  return {
    get footer() {
      return inner?.footer;
    },
    async *[Symbol.asyncIterator]() {
      const { searchArchive } = await import('./archive-search.js');
      inner = searchArchive(dir, { ...options, ...(query && { query }) });
      yield* inner;
    },
  };
}
