import { describe, expect, it } from 'vitest';
import { AbortError, SvcError } from '../../src/core/errors/error-classes.js';
import { ListingGuard, MAX_LIST_PAGES, MAX_LISTED_OBJECTS } from '../../src/node/audit-store/list-pages.js';

// The bound on a paged listing, page by page (the built CLI against a store that lists forever:
// listing-bounds.e2e.test.ts).

const guard = (signal?: AbortSignal) => new ListingGuard('s3://b/p', 'ListObjectsV2', signal);

function stopped(run: () => void): SvcError {
  try {
    run();
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected the listing to stop');
}

describe('a paged listing stops with one line: repeated token, no token, too many pages or entries', () => {
  it('goes on with fresh tokens and ends at the last page', () => {
    const g = guard();
    expect(g.next(true, 'a', 1000)).toBe('a');
    expect(g.next(true, 'b', 2000)).toBe('b');
    expect(g.next(false, undefined, 2500)).toBeUndefined();
  });

  it('a token given before, even pages later, stops it naming the store and the call', () => {
    const g = guard();
    g.next(true, 'a', 0);
    g.next(true, 'b', 0);
    const error = stopped(() => g.next(true, 'a', 0));
    expect(error.message).toBe(
      's3://b/p: the store gave a continuation token again after 3 pages (it would list forever); the listing (ListObjectsV2) was stopped',
    );
    expect(error.code).toBe('io');
  });

  it('"truncated" without a token stops it rather than ending early', () => {
    expect(stopped(() => guard().next(true, undefined, 0)).message).toContain('gives no token');
  });

  it(`more than ${MAX_LIST_PAGES} pages stop it`, () => {
    const g = guard();
    for (let page = 1; page < MAX_LIST_PAGES; page++) g.next(true, `t${page}`, 0);
    expect(stopped(() => g.next(true, 'last', 0)).message).toContain(`more than ${MAX_LIST_PAGES} pages`);
  });

  it(`more than ${MAX_LISTED_OBJECTS} entries stop it, even on the last page`, () => {
    expect(guard().next(false, undefined, MAX_LISTED_OBJECTS)).toBeUndefined();
    expect(stopped(() => guard().next(false, undefined, MAX_LISTED_OBJECTS + 1)).message).toContain(
      `more than ${MAX_LISTED_OBJECTS} objects`,
    );
  });

  it('an interrupt stops it with an AbortError', () => {
    const controller = new AbortController();
    controller.abort();
    expect(() => guard(controller.signal).next(true, 'a', 0)).toThrow(AbortError);
  });
});
