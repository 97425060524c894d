import { createHash } from 'node:crypto';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';

// The bound on a paged S3 listing (ListObjectsV2, ListMultipartUploads): a store that repeats a
// continuation token, or answers "truncated" forever, would otherwise keep the listing (and its
// memory) growing for good, deaf to an interrupt.

/** Most pages one listing reads: a thousand times what an archive of {@link MAX_LISTED_OBJECTS} needs. */
export const MAX_LIST_PAGES = 100_000;

/**
 * Most objects (or unfinished uploads) one listing gathers: 500,000, some 160,000 runs (an hourly
 * sync for 18 years); held in memory, some 100 MB at most.
 */
export const MAX_LISTED_OBJECTS = 500_000;

/**
 * Follows one paged listing of `what` (the archive's `s3://` location) by `request` (the S3 call's
 * name): after each page, {@link next} stops it with one line (a `SvcError`, code `io`, exit 1)
 * when the store repeats a token it gave before, says "truncated" without a token, or gives more
 * than {@link MAX_LIST_PAGES} pages or {@link MAX_LISTED_OBJECTS} entries; with the interrupt's
 * `signal` fired, with an `AbortError`. Tokens are kept as their sha256, so memory stays bounded.
 */
export class ListingGuard {
  private readonly seen = new Set<string>();
  private pages = 0;

  constructor(
    private readonly what: string,
    private readonly request: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private stop(reason: string): never {
    throw new SvcError(`${this.what}: ${reason}; the listing (${this.request}) was stopped`, 'io');
  }

  /**
   * The token to ask the next page with, or undefined at the end: `truncated` and `token` as the
   * page gave them, `listed` the entries gathered so far.
   */
  next(truncated: boolean | undefined, token: string | undefined, listed: number): string | undefined {
    if (this.signal?.aborted) throw new AbortError('The listing was interrupted');
    this.pages += 1;
    if (listed > MAX_LISTED_OBJECTS)
      this.stop(`the store lists more than ${MAX_LISTED_OBJECTS} objects, more than an archive holds`);
    if (!truncated) return undefined;
    if (!token) this.stop('the store says the listing goes on but gives no token for the next page');
    const digest = createHash('sha256').update(token).digest('hex');
    if (this.seen.has(digest))
      this.stop(
        `the store gave a continuation token again after ${this.pages} pages (it would list forever)`,
      );
    if (this.pages >= MAX_LIST_PAGES)
      this.stop(`the store gives more than ${MAX_LIST_PAGES} pages, more than an archive needs`);
    this.seen.add(digest);
    return token;
  }
}
