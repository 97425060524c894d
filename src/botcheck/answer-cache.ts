import {
  FetchLimitReachedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from './errors.js';

/**
 * How long an answer is remembered when the result does not say how long it is valid (legacy
 * results, final errors), ms: the service's default validity of 15 minutes.
 */
export const VERIFY_CACHE_TTL_MS = 15 * 60_000;
/** Most answers remembered at once per client and API; the oldest are forgotten first. */
export const VERIFY_CACHE_MAX_ENTRIES = 10_000;

/** A fetch's outcome, kept as a value so it can be handed to a replay. */
export type Settled<R> = { ok: true; result: R } | { ok: false; error: unknown };

interface Entry<R> {
  /** The verification id, so the eviction order can hold the entries themselves. */
  id: string;
  /** Epoch ms after which the id is forgotten; infinite while the fetch is in flight. */
  expiresAt: number;
  /** The fetch while it is in flight; dropped once settled (the answer stays in `kept`). */
  value: Promise<Settled<R>> | undefined;
  /** Once settled: true with the result in `kept`, false with the error. */
  ok: boolean;
  kept: unknown;
}

// Answers another fetch could not change. Transient failures (423, network, 5xx) are forgotten
// once settled, so a later call asks again.
function isFinal(settled: Settled<unknown>): boolean {
  return (
    settled.ok ||
    settled.error instanceof VerificationNotFoundError ||
    settled.error instanceof VerificationResultExpiredError ||
    settled.error instanceof FetchLimitReachedError
  );
}

/**
 * The verification ids this client answered, keyed by id, with the first answer. One entry is
 * the id, an expiry and the parsed result (about 1 KB). Entries live until the result's own
 * validity ends (after that the service answers 410 anyway), bounded by `maxEntries`. Forgetting
 * an id early is safe: a replay then reaches the service, which refuses a second fetch (429/410).
 */
export class AnswerCache<R> {
  private readonly entries = new Map<string, Entry<R>>();
  // Insertion order for eviction, read from `head`. Kept apart from the Map because walking a
  // Map from its start after many deletions skips every deleted slot: O(n) per eviction.
  private order: Entry<R>[] = [];
  private head = 0;

  constructor(
    private readonly now: () => number,
    /** Epoch ms until which a result stays valid, when the result says so. */
    private readonly validUntil: (result: R) => number | undefined = () => undefined,
    private readonly maxEntries = VERIFY_CACHE_MAX_ENTRIES,
  ) {}

  /**
   * The answer for `id`: `first` is true when this call started the fetch (`load`), false when
   * the id was already answered or is being answered (a replay). A replay's `value` is built only
   * when read, so a rejected replay allocates no promise.
   */
  claim(id: string, load: () => Promise<R>): { readonly value: Promise<Settled<R>>; first: boolean } {
    const found = this.entries.get(id);
    if (found && found.expiresAt > this.now()) {
      return {
        first: false,
        get value(): Promise<Settled<R>> {
          if (found.value) return found.value;
          return Promise.resolve(
            found.ok ? { ok: true, result: found.kept as R } : { ok: false, error: found.kept },
          );
        },
      };
    }
    if (found) this.entries.delete(id);
    this.makeRoom();
    const entry: Entry<R> = {
      id,
      expiresAt: Number.POSITIVE_INFINITY,
      value: undefined,
      ok: false,
      kept: undefined,
    };
    // One promise per fetch: its handlers build the settled value and keep the bookkeeping, so a
    // verify costs no extra microtask hops over the fetch itself.
    const settle = (settled: Settled<R>): Settled<R> => {
      if (this.entries.get(id) === entry) {
        if (!isFinal(settled)) this.entries.delete(id);
        else {
          entry.expiresAt =
            (settled.ok && this.validUntil(settled.result)) || this.now() + VERIFY_CACHE_TTL_MS;
          entry.ok = settled.ok;
          // Keep the answer itself, not the promise and its wrapper: two fewer objects per id.
          entry.kept = settled.ok ? settled.result : settled.error;
          entry.value = undefined;
        }
      }
      return settled;
    };
    let loading: Promise<R>;
    try {
      loading = load();
    } catch (error) {
      loading = Promise.reject(error);
    }
    const value = loading.then(
      (result) => settle({ ok: true, result }),
      (error: unknown) => settle({ ok: false, error }),
    );
    entry.value = value;
    this.entries.set(id, entry);
    this.order.push(entry);
    return { value, first: true };
  }

  /** Forgets every answer. */
  clear(): void {
    this.entries.clear();
    this.order = [];
    this.head = 0;
  }

  /** Number of ids remembered (including expired ones not yet dropped). */
  get size(): number {
    return this.entries.size;
  }

  private makeRoom(): void {
    // Drop the oldest until there is room; an entry replaced or deleted since is skipped.
    while (this.entries.size >= this.maxEntries && this.head < this.order.length) {
      const oldest = this.order[this.head++] as Entry<R>;
      if (this.entries.get(oldest.id) === oldest) this.entries.delete(oldest.id);
    }
    // Keep the order list near the number of entries: amortized O(1) per call.
    if (this.order.length - this.head > 2 * this.maxEntries || this.head > this.maxEntries) {
      this.order = Array.from(this.entries.values());
      this.head = 0;
    }
  }
}
