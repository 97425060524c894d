import type { ValidationResult } from './response-schemas.js';

/** Options of `watchCompletions` (`svc-sdk/node`). */
export interface CompletionWatchOptions {
  /** Interface the webhook listener binds. Default `127.0.0.1`. */
  host?: string;
  /** Port of the listener; 0 picks a free one. Default 0. */
  port?: number;
}

/** Options of {@link CompletionWatch.waitFor}. */
export interface WaitForOptions {
  /** Longest wait in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Stops waiting early (the promise then resolves to undefined). */
  signal?: AbortSignal;
}

/**
 * A local webhook listener that turns `taxvalidation.validation.completed` events into results.
 * Register {@link url} as the project's webhook endpoint before sending the validations to wait for.
 */
export interface CompletionWatch {
  /** The URL to register as a webhook endpoint (includes a random path token). */
  readonly url: string;
  /**
   * Resolves with the result of the validation request once its completion event has arrived and
   * the result was fetched from the API (events prove nothing by themselves: webhook signing is not
   * specified), or with undefined after `timeoutMs` or on abort.
   */
  waitFor(validationRequestId: string, options?: WaitForOptions): Promise<ValidationResult | undefined>;
  /** Stops the listener. */
  close(): Promise<void>;
}

/**
 * How long one PENDING validation is waited for by default: `CompletionWatch.waitFor`'s and
 * `validate`'s `wait.timeoutMs` (the CLI's `svc tax validate --wait-timeout`, default 60 s). Not the
 * batch file run's wait (`DEFAULT_BATCH_WAIT_MS`, 5 minutes).
 */
export const DEFAULT_RESULT_WAIT_MS = 60_000;
