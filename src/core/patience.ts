import { timeoutOver } from './attempt-timer.js';
import { AbortError, ApiError, TimeoutError } from './errors/error-classes.js';
import type { RequestOptions } from './http.js';
import type { Logger } from './logger.js';
import { backoffDelay, isRetryable, type RetryPolicy } from './retry.js';

/** How long bulk work keeps retrying a request the service throttles (429) or fails (5xx). */
export interface PatienceOptions {
  /**
   * How long one request that keeps meeting 429 or 5xx is retried past `maxRetries`, ms, counted
   * from its first failure; each wait grows (0.5 s doubling to 8 s, full jitter) unless the
   * answer's `Retry-After` says how long. `maxRetries: 0` turns every retry off, these too; 0
   * keeps only `maxRetries`. Default 120 000 (2 minutes).
   */
  retryForMs?: number;
}

/** {@link PatienceOptions.retryForMs} when none is given: 2 minutes. */
export const DEFAULT_RETRY_FOR_MS = 120_000;

/** Where a paced request starts and how it ended (see `Pace` of the batch runner). */
export interface Gate<Ticket> {
  /** Waits for the request's turn (a free slot, the pace's next start, any hold). */
  acquire(signal?: AbortSignal): Promise<Ticket>;
  /** The request ended: `throttled` with the wait the service asked for, if it said one. */
  done(
    ticket: Ticket,
    outcome: { throttled: false } | { throttled: true; retryAfterMs: number | undefined },
  ): void;
}

/** What {@link patiently} needs: the client's retry settings and clock, the call's bounds. */
export interface PatientSettings<Ticket = unknown> {
  policy: RetryPolicy;
  maxRetries: number;
  /** See {@link PatienceOptions.retryForMs}. */
  retryForMs: number;
  /** The call's total budget, ms (the client's or call's `deadlineMs`); none when undefined. */
  deadlineMs?: number | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  logger?: Logger | undefined;
  signal?: AbortSignal | undefined;
  /** Paces the attempts (the batch runner's `Pace`); a throttled attempt waits there instead of sleeping. */
  gate?: Gate<Ticket> | undefined;
}

/** Whether a failure is one that patience waits out: a 429 or 5xx answer. */
export function isPaceable(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

/** The wait a 429 or 503 asked for, ms (its `Retry-After`, capped at 60 s), if any. */
export function retryAfterMsOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.retryAfterSeconds === undefined) return undefined;
  return Math.min(error.retryAfterSeconds * 1000, 60_000);
}

/**
 * Runs `attempt` (one HTTP attempt: call it with `maxRetries: 0`) until it succeeds or may not be
 * retried: any failure `policy` retries, up to `maxRetries` retries; past them, 429 and 5xx
 * answers for up to `retryForMs` after the first failure (none with `maxRetries` 0). The waits
 * grow with full jitter; `Retry-After` wins. The last failure is thrown as it came.
 */
export async function patiently<T, Ticket>(
  attempt: (options: Pick<RequestOptions, 'maxRetries' | 'deadlineMs'>) => Promise<T>,
  s: PatientSettings<Ticket>,
): Promise<T> {
  const deadline = s.deadlineMs === undefined ? undefined : s.now() + s.deadlineMs;
  let firstFailure: number | undefined;
  let attempts = 0;
  // A timeout thrown from here counts every attempt this loop made.
  const counted = (failure: unknown) =>
    failure instanceof TimeoutError ? timeoutOver(failure, attempts, s.deadlineMs) : failure;
  for (let retry = 1; ; retry++) {
    if (s.signal?.aborted) throw new AbortError();
    const ticket = s.gate ? await s.gate.acquire(s.signal) : undefined;
    const remaining = deadline === undefined ? undefined : Math.max(deadline - s.now(), 1);
    let failure: unknown;
    try {
      const result = await attempt({
        maxRetries: 0,
        ...(remaining !== undefined && { deadlineMs: remaining }),
      });
      if (s.gate) s.gate.done(ticket as Ticket, { throttled: false });
      return result;
    } catch (error) {
      failure = error;
    }
    attempts += failure instanceof TimeoutError ? (failure.attempts ?? 1) : 1;
    const throttled = failure instanceof ApiError && failure.status === 429;
    const retryAfterMs = retryAfterMsOf(failure);
    if (s.gate) s.gate.done(ticket as Ticket, throttled ? { throttled, retryAfterMs } : { throttled: false });
    if (failure instanceof AbortError) throw failure;
    const now = s.now();
    firstFailure ??= now;
    const retryable = isRetryable(s.policy, outcomeOf(failure));
    const withinCount = retry <= s.maxRetries;
    const withinTime = s.maxRetries > 0 && isPaceable(failure) && now - firstFailure < s.retryForMs;
    if (!retryable || !(withinCount || withinTime)) throw counted(failure);
    // A gate holds a throttled request back itself (Retry-After or its own backoff).
    const delay =
      s.gate && throttled
        ? 0
        : (retryAfterMs ?? backoffDelay(retry, undefined, { random: s.random, now: s.now }));
    if (deadline !== undefined && now + delay >= deadline) throw counted(failure);
    const name = failure instanceof Error ? failure.name : 'error';
    s.logger?.debug(`retrying in ${delay}ms after ${name} (retry ${retry})`);
    if (delay > 0) await s.sleep(delay, s.signal);
  }
}

function outcomeOf(error: unknown): { status?: number; error?: unknown } {
  return error instanceof ApiError ? { status: error.status } : { error };
}
