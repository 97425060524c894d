import { ConnectionError, TimeoutError } from './errors/error-classes.js';

/**
 * When a failed attempt may be tried again. Chosen per endpoint, never globally: a retry is only
 * safe where the server cannot act twice on one request.
 */
export interface RetryPolicy {
  /** Statuses that are retried (5xx are listed through `serverErrors`). */
  readonly statuses: readonly number[];
  /** Retry any 5xx. */
  readonly serverErrors: boolean;
  /** Retry a timed-out attempt (the server may have acted on it). */
  readonly timeouts: boolean;
  /** Retry a connection that broke after the request was written. */
  readonly connectionErrorsAfterSend: boolean;
}

/** Reads and idempotency-keyed writes: connection errors, timeouts, 408, 429, 5xx. */
export const RETRY_SAFE: RetryPolicy = {
  statuses: [408, 429],
  serverErrors: true,
  timeouts: true,
  connectionErrorsAfterSend: true,
};

/** Idempotent deletes: connection errors, timeouts and 5xx. */
export const RETRY_IDEMPOTENT_DELETE: RetryPolicy = {
  statuses: [],
  serverErrors: true,
  timeouts: true,
  connectionErrorsAfterSend: true,
};

/**
 * Calls the server may act on only once (schedule creation, bot-check result fetches that consume
 * the result): retried only when the connection failed before the request was written.
 */
export const RETRY_UNSENT_ONLY: RetryPolicy = {
  statuses: [],
  serverErrors: false,
  timeouts: false,
  connectionErrorsAfterSend: false,
};

/** Whether an attempt that ended with `error` (or `status`) may be retried under `policy`. */
export function isRetryable(policy: RetryPolicy, outcome: { status?: number; error?: unknown }): boolean {
  const { status, error } = outcome;
  if (status !== undefined) return policy.statuses.includes(status) || (policy.serverErrors && status >= 500);
  if (error instanceof ConnectionError) return !error.requestSent || policy.connectionErrorsAfterSend;
  if (error instanceof TimeoutError) return policy.timeouts;
  return false;
}

/** Backoff settings; defaults follow the design: 0.5 s doubling, 8 s cap, Retry-After capped at 60 s. */
export interface BackoffOptions {
  /** First delay before jitter, ms. Default 500. */
  baseMs?: number;
  /** Largest delay before jitter, ms. Default 8000. */
  capMs?: number;
  /** Largest delay taken from a `Retry-After` header, ms. Default 60000. */
  retryAfterCapMs?: number;
  /** Random source in [0, 1) for full jitter. Default `Math.random`. */
  random?: () => number;
  /** Clock used to read an HTTP-date `Retry-After`. Default `Date.now`. */
  now?: () => number;
}

/** Parses `Retry-After` (delta seconds or HTTP date) into milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: () => number = Date.now): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}

/**
 * Delay before retry number `retry` (1 for the first retry): full jitter over
 * `min(cap, base * 2^(retry-1))`; a `Retry-After` value wins, capped.
 */
export function backoffDelay(
  retry: number,
  retryAfter: string | undefined,
  options: BackoffOptions = {},
): number {
  const {
    baseMs = 500,
    capMs = 8000,
    retryAfterCapMs = 60_000,
    random = Math.random,
    now = Date.now,
  } = options;
  const fromHeader = parseRetryAfter(retryAfter, now);
  if (fromHeader !== undefined) return Math.min(fromHeader, retryAfterCapMs);
  const ceiling = Math.min(capMs, baseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
