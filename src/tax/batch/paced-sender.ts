import type { RequestOptions } from '../../core/http.js';
import { DEFAULT_RETRY_FOR_MS, type PatientSettings, patiently } from '../../core/patience.js';
import { RETRY_SAFE } from '../../core/retry.js';
import { Pace } from './pace.js';
import type { BatchSender, RetryDefaults, RunBatchOptions } from './types.js';

/**
 * The sender of one batch run, paced: every request waits its turn in one {@link Pace} (fewer in
 * flight and a slower rate after a 429, `Retry-After` honoured, then back up), and is retried by
 * {@link patiently} with its own idempotency keys: any retryable failure up to `maxRetries`, 429
 * and 5xx for up to `retryForMs` from the first failure. A sender without retry defaults (a test
 * double) is used as it is.
 */
export function pacedSender(tax: BatchSender, options: RunBatchOptions, concurrency: number): BatchSender {
  const defaults = tax._retryDefaults?.();
  if (!defaults) return tax;
  const pace = new Pace({ concurrency, now: defaults.now, sleep: defaults.sleep, random: defaults.random });
  const settings = (o: RequestOptions | undefined): PatientSettings<unknown> => ({
    policy: RETRY_SAFE,
    maxRetries: o?.maxRetries ?? defaults.maxRetries,
    retryForMs: options.retryForMs ?? DEFAULT_RETRY_FOR_MS,
    deadlineMs: o?.deadlineMs ?? defaults.deadlineMs,
    sleep: defaults.sleep,
    random: defaults.random,
    now: defaults.now,
    logger: defaults.logger,
    signal: o?.signal,
    gate: pace as PatientSettings<unknown>['gate'],
  });
  return {
    _submitBatch: (items, o) => patiently((a) => tax._submitBatch(items, { ...o, ...a }), settings(o)),
    validate: (params, o) => patiently((a) => tax.validate(params, { ...o, ...a }), settings(o)),
  };
}

export type { RetryDefaults };
