import { PagingError } from '../core/errors/error-classes.js';

/** A page as far as paging cares. */
export interface CursorPage {
  nextCursor: string | null;
  /** The events; only their count and `id` matter here. */
  content: readonly { id?: string | undefined }[];
  /** Events in the whole range, as the server counts them. */
  totalElements?: number | undefined;
}

/** Limits that stop paging when a server misbehaves. */
export interface PagingGuards {
  /** Empty pages in a row that still carry a cursor before paging stops with {@link PagingError}. Default 3. */
  maxEmptyPages?: number;
  /** Distinct events already read before `startCursor` (a resumed export), for the count check. Default 0. */
  countedBefore?: number;
}

/** Empty pages in a row, with a cursor, that a well-behaved server never sends this many of. */
const DEFAULT_MAX_EMPTY_PAGES = 3;

/**
 * Checks each page against the rules of a well-behaved server, before the page is handed on:
 * no cursor twice, at most `maxEmptyPages` empty pages in a row that still carry a cursor, and
 * no more distinct events than `totalElements` (the largest value the server has reported, so a
 * range that legitimately grows is not refused). Usable on its own by code that pages itself.
 */
export class PageGuard {
  private readonly seen = new Set<string>();
  private readonly recent = new RecentIds();
  private readonly maxEmptyPages: number;
  private emptyInRow = 0;
  private counted: number;
  private total = -1;
  private pages = 0;
  /**
   * Indexes of the last checked page's events whose `id` was already seen on that page or the one
   * before (the copies to drop); undefined when there was none, the usual case.
   */
  duplicates: Set<number> | undefined;

  constructor(startCursor?: string, guards: PagingGuards = {}) {
    if (startCursor !== undefined) this.seen.add(startCursor);
    this.maxEmptyPages = guards.maxEmptyPages ?? DEFAULT_MAX_EMPTY_PAGES;
    this.counted = guards.countedBefore ?? 0;
  }

  /**
   * Checks the next page; throws {@link PagingError} when its events break a rule. Returns the
   * error for a repeated `nextCursor`: the page itself is good, so the caller hands it on and
   * then throws, instead of following the cursor.
   */
  check(page: CursorPage): PagingError | undefined {
    this.pages += 1;
    const next = page.nextCursor;
    let repeated: PagingError | undefined;
    if (next !== null && this.seen.has(next)) {
      repeated = new PagingError(
        `The audit log returned a cursor it had already returned (page ${this.pages + 1}); stopped instead of reading the same pages again`,
        'repeated_cursor',
      );
    }
    if (next !== null) this.seen.add(next);
    if (page.content.length === 0 && next !== null) {
      this.emptyInRow += 1;
      if (this.emptyInRow >= this.maxEmptyPages) {
        throw new PagingError(
          `The audit log returned ${this.emptyInRow} empty pages in a row that still point to a next page (page ${this.pages}); stopped`,
          'endless_paging',
        );
      }
    } else this.emptyInRow = 0;
    this.recent.nextPage();
    this.duplicates = undefined;
    const content = page.content;
    for (let k = 0; k < content.length; k++) {
      const id = content[k]?.id;
      if (typeof id !== 'string' || this.recent.add(id)) this.counted += 1;
      else {
        this.duplicates ??= new Set();
        this.duplicates.add(k);
      }
    }
    if (typeof page.totalElements === 'number') this.total = Math.max(this.total, page.totalElements);
    if (this.total >= 0 && this.counted > this.total) {
      throw new PagingError(
        `The audit log returned more events (${this.counted}) than its totalElements (${this.total}) by page ${this.pages}; stopped`,
        'count_exceeded',
      );
    }
    return repeated;
  }
}

/**
 * Follows `nextCursor` from `startCursor` (undefined: the first page) until it is null. Each page
 * passes a {@link PageGuard} before it is yielded (a repeated cursor, endless empty pages or more
 * events than `totalElements` throw {@link PagingError}), so a misbehaving server never makes
 * this an endless loop. With `prefetch`, the next page is requested while the caller works on
 * the current one. Pass your own `PageGuard` as `guards` to read its `duplicates` for each page
 * yielded (they describe that page until the next one is asked for).
 */
export async function* followCursors<P extends CursorPage>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  startCursor?: string,
  prefetch = false,
  guards: PagingGuards | PageGuard = {},
): AsyncGenerator<P> {
  const guard = guards instanceof PageGuard ? guards : new PageGuard(startCursor, guards);
  let pending = fetchPage(startCursor);
  for (;;) {
    const page = await pending;
    const repeated = guard.check(page);
    const next = page.nextCursor;
    if (prefetch && next !== null && !repeated) {
      pending = fetchPage(next);
      // Observed later by the await above; a consumer that stops early must not see an unhandled rejection.
      pending.catch(() => {});
    }
    yield page;
    if (next === null) return;
    if (repeated) throw repeated;
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
