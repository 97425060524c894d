/**
 * How long an answer is remembered when the result does not say how long it is valid (legacy
 * results, errors), ms: the service's default validity of 15 minutes.
 */
export const VERIFY_CACHE_TTL_MS = 15 * 60_000;
/**
 * Most answered ids (accept or challenge) remembered at once per client and API; past it the
 * oldest answered id is forgotten first. Only another answer takes its place: no flood of
 * unanswered ids does.
 */
export const VERIFY_CACHE_MAX_ENTRIES = 10_000;
/**
 * Most other ids remembered at once per client and API (rejected, not found, expired, fetched
 * elsewhere, failed), apart from the answered ones; past it the oldest of them is forgotten first.
 */
export const VERIFY_CACHE_MAX_UNANSWERED = 10_000;

/** A fetch's outcome, kept as a value so it can be handed to a replay. */
export type Settled<R> = { ok: true; result: R } | { ok: false; error: unknown };

/**
 * Where a settled answer is kept, chosen by the caller when it settles:
 * - `answered`: with the answered ids, until the result's validity ends (a replay gets no fetch);
 * - `unanswered`: with the other ids, for {@link VERIFY_CACHE_TTL_MS} (a replay gets no fetch);
 * - `retry`: with the other ids, for {@link VERIFY_CACHE_TTL_MS}, but a later claim fetches again,
 *   marked `seen` (for answers another fetch may change: 423, a failure).
 */
export type Retention = 'answered' | 'unanswered' | 'retry';

/** Bounds of an {@link AnswerCache}. */
export interface AnswerCacheBounds {
  /** Most ids kept as `answered`. Default {@link VERIFY_CACHE_MAX_ENTRIES}. */
  maxAnswered?: number;
  /** Most ids kept as `unanswered` or `retry`. Default {@link VERIFY_CACHE_MAX_UNANSWERED}. */
  maxUnanswered?: number;
}

/** What a claim gives: see {@link AnswerCache.claim}. */
export interface Claim<R> {
  /** true when this call started the fetch; false for a replay. */
  readonly first: boolean;
  /** true when the id was presented before and its answer allowed asking again (`retry`). */
  readonly seen: boolean;
  /** The answer: the fetch this call started, or the one it replays. */
  readonly value: Promise<Settled<R>>;
}

interface Entry<R> {
  /** The canonical id, so the eviction order can hold the entries themselves. */
  key: string;
  /** Epoch ms after which the id is forgotten; infinite while the fetch is in flight. */
  expiresAt: number;
  /** The fetch while it is in flight; dropped once settled (the answer stays in `kept`). */
  value: Promise<Settled<R>> | undefined;
  /** Once settled: true with the result in `kept`, false with the error. */
  ok: boolean;
  kept: unknown;
  /** Undefined while in flight. */
  retention: Retention | undefined;
}

/** Oldest-first order of one bound's entries, with its own count. */
class Partition<R> {
  // Read from `head`. Kept apart from the Map because walking a Map from its start after many
  // deletions skips every deleted slot: O(n) per eviction.
  order: Entry<R>[] = [];
  head = 0;
  count = 0;
  constructor(readonly max: number) {}
}

/**
 * The verification ids this client was asked about, keyed by the canonical (lower-case) id, with
 * the first answer. One entry is the id, an expiry and the parsed result (about 1 KB). Two bounds
 * keep memory fixed under any flood: answered ids (accept or challenge) live until the result's
 * own validity ends (after that the service answers 410 anyway) and give way only to other
 * answers; every other id has a bound of its own, so random, unknown or malformed ids never push
 * an answer out. Ids being fetched are never forgotten; there are at most as many as calls in
 * flight, each ending within its timeout.
 */
export class AnswerCache<R> {
  private readonly entries = new Map<string, Entry<R>>();
  private readonly answered: Partition<R>;
  private readonly unanswered: Partition<R>;

  constructor(
    private readonly now: () => number,
    /** Epoch ms until which a result stays valid, when the result says so. */
    private readonly validUntil: (result: R) => number | undefined = () => undefined,
    bounds: AnswerCacheBounds = {},
  ) {
    this.answered = new Partition(bounds.maxAnswered ?? VERIFY_CACHE_MAX_ENTRIES);
    this.unanswered = new Partition(bounds.maxUnanswered ?? VERIFY_CACHE_MAX_UNANSWERED);
  }

  /**
   * The answer for `id` (compared case-insensitively): `first` is true when this call started
   * the fetch (`load`), false when the id was already answered or is being answered (a replay).
   * When the fetch settles, `retain` says where its answer is kept. A replay's `value` is built
   * only when read, so a rejected replay allocates no promise.
   */
  claim(id: string, load: () => Promise<R>, retain: (settled: Settled<R>) => Retention): Claim<R> {
    const key = id.toLowerCase();
    const found = this.entries.get(key);
    const live = found !== undefined && found.expiresAt > this.now();
    if (live && found.retention !== 'retry') {
      return {
        first: false,
        seen: true,
        get value(): Promise<Settled<R>> {
          if (found.value) return found.value;
          return Promise.resolve(
            found.ok ? { ok: true, result: found.kept as R } : { ok: false, error: found.kept },
          );
        },
      };
    }
    if (found) this.forget(found);
    const entry: Entry<R> = {
      key,
      expiresAt: Number.POSITIVE_INFINITY,
      value: undefined,
      ok: false,
      kept: undefined,
      retention: undefined,
    };
    // One promise per fetch: its handlers build the settled value and keep the bookkeeping, so a
    // verify costs no extra microtask hops over the fetch itself.
    const settle = (settled: Settled<R>): Settled<R> => {
      if (this.entries.get(key) === entry) this.keep(entry, settled, retain(settled));
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
    this.entries.set(key, entry);
    return { value, first: true, seen: live };
  }

  /** Forgets every answer. */
  clear(): void {
    this.entries.clear();
    for (const p of [this.answered, this.unanswered]) {
      p.order = [];
      p.head = 0;
      p.count = 0;
    }
  }

  /** Number of ids remembered (including expired ones not yet dropped, and those in flight). */
  get size(): number {
    return this.entries.size;
  }

  private keep(entry: Entry<R>, settled: Settled<R>, retention: Retention): void {
    const partition = retention === 'answered' ? this.answered : this.unanswered;
    this.makeRoom(partition);
    entry.retention = retention;
    entry.expiresAt =
      (retention === 'answered' && settled.ok && this.validUntil(settled.result)) ||
      this.now() + VERIFY_CACHE_TTL_MS;
    entry.ok = settled.ok;
    // Keep the answer itself, not the promise and its wrapper: two fewer objects per id.
    entry.kept = settled.ok ? settled.result : settled.error;
    entry.value = undefined;
    partition.order.push(entry);
    partition.count++;
  }

  private forget(entry: Entry<R>): void {
    this.entries.delete(entry.key);
    if (entry.retention !== undefined) this.partitionOf(entry).count--;
  }

  private partitionOf(entry: Entry<R>): Partition<R> {
    return entry.retention === 'answered' ? this.answered : this.unanswered;
  }

  private makeRoom(p: Partition<R>): void {
    // Drop the oldest until there is room; an entry replaced or deleted since is skipped.
    while (p.count >= p.max && p.head < p.order.length) {
      const oldest = p.order[p.head++] as Entry<R>;
      if (this.entries.get(oldest.key) === oldest) this.forget(oldest);
    }
    // Keep the order list near the partition's size: amortized O(1) per call.
    if (p.order.length - p.head > 2 * p.max || p.head > p.max) {
      p.order = p.order.slice(p.head).filter((e) => this.entries.get(e.key) === e);
      p.head = 0;
    }
  }
}
