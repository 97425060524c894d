import { AbortError } from '../../core/errors/error-classes.js';
import type { Gate } from '../../core/patience.js';
import { backoffDelay } from '../../core/retry.js';

/** Settings of a {@link Pace}. */
export interface PaceOptions {
  /** Most requests in flight: where the pace starts and what it climbs back to. */
  concurrency: number;
  /** Clock, ms. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms` (rejects with an `AbortError` when the signal fires). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random source in [0, 1) for the jitter of a hold without `Retry-After`. Default `Math.random`. */
  random?: () => number;
}

/** One request's place in the pace: when it started, and after how many cuts. */
export interface PaceTicket {
  readonly startedAt: number;
  readonly cuts: number;
}

/** The slowest pace a throttle can bring the rate to, requests per second (AWS: 0.5). */
export const MIN_RATE = 0.5;
/** Rate share kept when throttled (CUBIC's beta, as AWS CLI's adaptive mode). */
const BETA = 0.7;
/** CUBIC's scaling constant (as AWS CLI's adaptive mode). */
const SCALE = 0.4;
/** The window over which the send rate is measured, ms. */
const WINDOW_MS = 2000;

/**
 * The batch runner's client-side pace, after AWS CLI's "adaptive" retry mode: unlimited until the
 * service throttles (429); then a rate (requests started per second) cut to 70 % of the rate in
 * force (the rate measured, the first time) that climbs back along CUBIC's curve while requests
 * pass (back at the old rate after about a second at 2 requests/s, then probing past it), never
 * above twice the rate measured; and the requests in flight halved, climbing back a slot per
 * window of successes. A throttle also holds every start for the answer's `Retry-After`, or
 * without one a growing full-jitter backoff (0.5 s doubling to 8 s). A throttle of a request
 * started before the last cut cuts nothing more (one cut per burst). Waiters are served in order.
 */
export class Pace implements Gate<PaceTicket> {
  readonly #ceiling: number;
  readonly #now: () => number;
  readonly #sleep: PaceOptions['sleep'];
  readonly #random: () => number;
  #limit: number;
  #inFlight = 0;
  /** Requests per second; undefined until the first throttle. */
  #rate: number | undefined;
  /** The rate when last throttled (CUBIC's W_max). */
  #lastMax = 0;
  #nextStart = 0;
  #holdUntil = 0;
  #lastCut = Number.NEGATIVE_INFINITY;
  /** Cuts so far: a throttle of a request started before the last one cuts nothing more. */
  #cuts = 0;
  #throttlesInARow = 0;
  #starts: number[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #freed: (() => void) | undefined;

  constructor(options: PaceOptions) {
    this.#ceiling = Math.max(1, Math.floor(options.concurrency));
    this.#limit = this.#ceiling;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep;
    this.#random = options.random ?? Math.random;
  }

  /** Requests allowed in flight now (1 to the ceiling). */
  get concurrency(): number {
    return Math.floor(this.#limit);
  }

  /** The rate in force, requests per second; undefined while unlimited. */
  get rate(): number | undefined {
    return this.#rate;
  }

  /** Waits for a slot, the next start of the rate and the end of any hold; in order of asking. */
  acquire(signal?: AbortSignal): Promise<PaceTicket> {
    const turn = this.#queue.then(() => this.#take(signal));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #take(signal: AbortSignal | undefined): Promise<PaceTicket> {
    for (;;) {
      if (signal?.aborted) throw new AbortError();
      if (this.#inFlight >= Math.floor(this.#limit)) {
        await this.#slotFreed(signal);
        continue;
      }
      const now = this.#now();
      const startAt = Math.max(this.#holdUntil, this.#rate === undefined ? 0 : this.#nextStart);
      if (startAt > now) {
        await this.#sleep(startAt - now, signal);
        continue;
      }
      this.#inFlight += 1;
      if (this.#rate !== undefined) this.#nextStart = Math.max(now, this.#nextStart) + 1000 / this.#rate;
      this.#starts.push(now);
      while ((this.#starts[0] as number) <= now - WINDOW_MS) this.#starts.shift();
      return { startedAt: now, cuts: this.#cuts };
    }
  }

  #slotFreed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new AbortError());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#freed = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
    });
  }

  /** A request ended: a success climbs back, a throttle cuts the pace and holds starts. */
  done(
    ticket: PaceTicket,
    outcome: { throttled: false } | { throttled: true; retryAfterMs: number | undefined },
  ): void {
    this.#inFlight -= 1;
    const freed = this.#freed;
    this.#freed = undefined;
    freed?.();
    const now = this.#now();
    if (!outcome.throttled) {
      this.#throttlesInARow = 0;
      this.#limit = Math.min(this.#ceiling, this.#limit + 1 / this.#limit);
      if (this.#rate !== undefined) this.#rate = Math.max(MIN_RATE, this.#cubic(now));
      return;
    }
    this.#throttlesInARow += 1;
    const wait =
      outcome.retryAfterMs ??
      backoffDelay(this.#throttlesInARow, undefined, { random: this.#random, now: this.#now });
    this.#holdUntil = Math.max(this.#holdUntil, now + wait);
    if (ticket.cuts < this.#cuts) return;
    this.#cuts += 1;
    this.#lastCut = now;
    this.#lastMax = Math.max(this.#rate ?? this.#measured(now), MIN_RATE);
    this.#rate = Math.max(MIN_RATE, this.#lastMax * BETA);
    this.#limit = Math.max(1, this.#limit / 2);
    this.#nextStart = Math.max(this.#nextStart, this.#holdUntil);
  }

  /** Requests started per second over the last window. */
  #measured(now: number): number {
    return (this.#starts.filter((t) => t > now - WINDOW_MS).length * 1000) / WINDOW_MS;
  }

  /** CUBIC's rate `seconds` after the last cut, at most twice the rate measured. */
  #cubic(now: number): number {
    const k = Math.cbrt((this.#lastMax * (1 - BETA)) / SCALE);
    const t = (now - this.#lastCut) / 1000;
    const rate = SCALE * (t - k) ** 3 + this.#lastMax;
    return Math.min(rate, Math.max(2 * this.#measured(now), this.#lastMax));
  }
}
