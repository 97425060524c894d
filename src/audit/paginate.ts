import { SvcError } from '../core/errors/svc-error.js';

/** A page as far as paging cares. */
export interface CursorPage {
  nextCursor: string | null;
}

/**
 * Follows `nextCursor` from `startCursor` (undefined: the first page) until it is null. A cursor
 * the server already returned is an error, never an endless loop. With `prefetch`, the next page
 * is requested while the caller works on the current one.
 */
export async function* followCursors<P extends CursorPage>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  startCursor?: string,
  prefetch = false,
): AsyncGenerator<P> {
  const seen = new Set<string>();
  if (startCursor !== undefined) seen.add(startCursor);
  let pending = fetchPage(startCursor);
  for (let pages = 1; ; pages++) {
    const page = await pending;
    const next = page.nextCursor;
    const repeated = next !== null && seen.has(next);
    if (next !== null) seen.add(next);
    if (prefetch && next !== null && !repeated) {
      pending = fetchPage(next);
      // Observed later by the await above; a consumer that stops early must not see an unhandled rejection.
      pending.catch(() => {});
    }
    yield page;
    if (next === null) return;
    if (repeated) {
      throw new SvcError(
        `The audit log returned a cursor it had already returned (page ${pages + 1}); stopped instead of reading the same pages again`,
        'repeated_cursor',
      );
    }
    if (!prefetch) pending = fetchPage(next);
  }
}

/**
 * Ids of the events of the last two pages: enough to drop an event the server repeats across a
 * page boundary, with memory bounded by the page size.
 */
export class RecentIds {
  private previous = new Set<string>();
  private current = new Set<string>();

  /** Call before each page. */
  nextPage(): void {
    this.previous = this.current;
    this.current = new Set();
  }

  /** Records `id`; false when it was already seen. */
  add(id: string): boolean {
    if (this.current.has(id) || this.previous.has(id)) return false;
    this.current.add(id);
    return true;
  }
}
