import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortError, ApiError, ConnectionError, TimeoutError } from '../../../core/errors/error-classes.js';
import type { RequestOptions } from '../../../core/http.js';
import type { BatchSender } from '../../../tax/batch/types.js';
import type { ValidationRequest } from '../../../tax/request-schemas.js';
import { type CompletionJoiner, summaryOf } from './joiner.js';

/** Rows asked about at once by default. */
export const RECONCILE_CONCURRENCY = 16;
/** The longest wait between two rounds for rows still PENDING. */
const MAX_BACKOFF_MS = 30_000;

/** A row's original request, rebuilt from the input; `undefined` when the row no longer checks. */
export interface RowRequest {
  row: number;
  request: (ValidationRequest & { idempotencyKey: string }) | undefined;
}

/** Options of {@link reconcile}. */
export interface ReconcileOptions {
  /** The original requests of the given rows (in row order), rebuilt from the input. */
  requests(rows: readonly number[]): AsyncIterable<RowRequest>;
  /** Requests in flight at most. Default 16. */
  concurrency?: number;
  /** Wait before asking again about rows still PENDING; doubles each round up to 30 s. Default 1000. */
  backoffMs?: number;
  /** No round starts after this time (ms since the epoch): one round only when it has passed. */
  deadline: number;
  signal?: AbortSignal;
  /** Timeout and retries of each request. */
  request?: Pick<RequestOptions, 'timeoutMs' | 'maxRetries' | 'deadlineMs'>;
  /**
   * Asked before each row with the number of rows asked so far; true ends the reconciliation
   * there (the rows not asked stay waiting). Default: never.
   */
  pause?(asked: number): boolean;
}

/** Whether an error may pass (the row is asked about again in the next round). */
function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error instanceof ApiError && (error.status === 408 || error.status === 429 || error.status >= 500);
}

/**
 * Asks the service about every row still waiting for its outcome, through its idempotency: the
 * row's original request is sent again with the same `idempotencyKey`, which answers 200 with the
 * stored result when the validation is done (nothing is validated a second time; a request the
 * service never received is validated now, for the first time). Rows still PENDING are asked again
 * after a backoff, round after round, until none waits or the deadline passed. A refusal (409: the
 * key was used with another body; 422) fails the row with its reason.
 */
export async function reconcile(
  tax: Pick<BatchSender, 'validate'>,
  joiner: CompletionJoiner,
  options: ReconcileOptions,
): Promise<void> {
  const concurrency = Math.max(options.concurrency ?? RECONCILE_CONCURRENCY, 1);
  // One signal of its own for the requests in flight (each listens to it), so the caller's signal
  // keeps a single listener whatever the concurrency (no MaxListenersExceededWarning).
  const controller = new AbortController();
  setMaxListeners(concurrency + 4, controller.signal);
  const stop = () => controller.abort();
  if (options.signal?.aborted) return;
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await rounds(tax, joiner, { ...options, signal: controller.signal }, concurrency);
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
}

async function rounds(
  tax: Pick<BatchSender, 'validate'>,
  joiner: CompletionJoiner,
  options: ReconcileOptions,
  concurrency: number,
): Promise<void> {
  let backoff = Math.max(options.backoffMs ?? 1000, 1);
  let rows = joiner.outstandingRows();
  let asked = 0;
  while (rows.length > 0) {
    const again: number[] = [];
    const ask = async ({ row, request }: RowRequest): Promise<void> => {
      if (!joiner.isWaiting(row)) return;
      if (!request) {
        joiner.finish(row, {
          status: 'failed',
          code: 'INPUT_CHANGED',
          message: 'the row no longer passes the local checks; its outcome is unknown',
        });
        return;
      }
      try {
        const answer = await tax.validate(request, {
          ...options.request,
          precheck: 'off',
          signal: options.signal,
        });
        if (answer.kind === 'completed')
          joiner.finish(row, summaryOf(answer.result), answer.result.validationRequestId);
        else again.push(row);
      } catch (error) {
        if (error instanceof AbortError) return;
        if (isTransient(error)) {
          again.push(row);
          return;
        }
        const code = error instanceof ApiError ? `HTTP_${error.status}` : 'ERROR';
        const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
        joiner.finish(row, { status: 'failed', code, message });
      }
    };
    const inFlight = new Set<Promise<void>>();
    let paused = false;
    for await (const item of options.requests(rows)) {
      if (options.signal?.aborted) break;
      if (options.pause?.(asked)) {
        paused = true;
        break;
      }
      asked += 1;
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
      const work: Promise<void> = ask(item).finally(() => inFlight.delete(work));
      inFlight.add(work);
    }
    await Promise.all(inFlight);
    if (options.signal?.aborted || paused) return;
    rows = again.filter((row) => joiner.isWaiting(row)).sort((a, b) => a - b);
    if (rows.length === 0 || Date.now() + backoff > options.deadline) return;
    try {
      await sleep(backoff, undefined, { signal: options.signal });
    } catch {
      return;
    }
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}
