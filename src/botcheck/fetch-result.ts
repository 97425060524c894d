import { LocalValidationError } from '../core/errors/error-classes.js';
import type { CallSpec, HttpClient, RequestOptions } from '../core/http.js';
import { RETRY_UNSENT_ONLY } from '../core/retry.js';
import type { CallResult } from '../core/success-body.js';
import { type BotCheckApi, toBotCheckError, VerificationNotFinishedError } from './errors.js';

/** Silence allowed per attempt of a bot-check result fetch, ms, unless the call or the client sets one. */
export const BOT_CHECK_TIMEOUT_MS = 5000;

/**
 * Total time of a bot-check result fetch with its retries, ms, unless the call or the client sets
 * one: a form submit fails closed within it even against a server that trickles its answer a
 * byte at a time (which the silence timeout alone would let run to the body's byte cap).
 */
export const BOT_CHECK_DEADLINE_MS = 10_000;

/** Keep asking while the verification is not finished (423), until a deadline. */
export interface WaitWhileNotFinished {
  /** Total time to keep waiting, ms. */
  deadlineMs: number;
  /** Pause between attempts, ms. Default 500. */
  intervalMs?: number;
}

/**
 * Runs `attempt`, and while it fails with {@link VerificationNotFinishedError} pauses and runs it
 * again until `deadlineMs` passed. A 423 does not consume the result, so asking again is safe.
 * Time counts as the larger of wall time and time spent pausing, so an injected `sleep` that
 * returns at once still ends after `deadlineMs / intervalMs` pauses. Without `wait`, the promise
 * of the one attempt itself (no await added on the hot path).
 */
export function retryWhileNotFinished<T>(
  http: HttpClient,
  wait: WaitWhileNotFinished | undefined,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  if (!wait) return attempt();
  return keepAsking(http, wait, signal, attempt);
}

/** The loop of {@link retryWhileNotFinished}, with its options checked. */
async function keepAsking<T>(
  http: HttpClient,
  wait: WaitWhileNotFinished,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  const interval = wait.intervalMs ?? 500;
  if (!(wait.deadlineMs >= 0) || !(interval >= 1)) {
    throw new LocalValidationError(
      [{ path: 'waitWhileNotFinished', message: 'deadlineMs must be 0 or more and intervalMs at least 1' }],
      'options',
    );
  }
  const { now, sleep } = http.settings;
  const started = now();
  let paused = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof VerificationNotFinishedError)) throw error;
      const left = wait.deadlineMs - Math.max(now() - started, paused);
      if (left <= 0) throw error;
      const delay = Math.min(interval, left);
      await sleep(delay, signal);
      paused += delay;
    }
  }
}

/** Options of `getResult` (and, with more, `getAssessment`). */
export interface GetResultOptions extends RequestOptions {
  /** Keep asking while the verification is not finished (423) until `deadlineMs`. Default: no waiting. */
  waitWhileNotFinished?: WaitWhileNotFinished;
}

/**
 * One result fetch of either bot-check API: a GET that is never retried once written (it consumes
 * the result), errors with their bot-check meaning, and the optional wait on 423.
 */
export function fetchResult<T>(
  http: HttpClient,
  api: BotCheckApi,
  request: Pick<CallSpec, 'path' | 'auth' | 'query' | 'jsonContentType'>,
  options: GetResultOptions,
  parse: (data: unknown) => T,
): Promise<T> {
  return retryWhileNotFinished(http, options.waitWhileNotFinished, options.signal, async () => {
    let res: CallResult;
    try {
      res = await http.call({
        method: 'GET',
        ...request,
        retry: RETRY_UNSENT_ONLY,
        timeoutMs: BOT_CHECK_TIMEOUT_MS,
        deadlineMs: BOT_CHECK_DEADLINE_MS,
        options,
      });
    } catch (error) {
      throw toBotCheckError(error, api);
    }
    return parse(res.data);
  });
}
