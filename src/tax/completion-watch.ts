import { listenForWebhooks, type WebhookListener } from '../node/webhooks/listen.js';
import type { ValidationResult } from './response-schemas.js';

/** Options of {@link watchCompletions}. */
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

/**
 * Starts a {@link CompletionWatch}. `getResult` fetches a result by id (`client.tax.getResult`).
 *
 * @example
 * const watch = await client.tax.watchCompletions();
 * // register watch.url as the webhook endpoint, then:
 * const outcome = await client.tax.validate(params, { wait: { watch } });
 * await watch.close();
 */
export async function watchCompletions(
  getResult: (validationResultId: string) => Promise<ValidationResult>,
  options: CompletionWatchOptions = {},
): Promise<CompletionWatch> {
  // Results that arrived before anyone waited for them, by validationRequestId.
  const arrived = new Map<string, ValidationResult>();
  const waiters = new Map<string, (result: ValidationResult) => void>();
  const deliver = (result: ValidationResult) => {
    const waiter = waiters.get(result.validationRequestId);
    if (waiter) waiter(result);
    else arrived.set(result.validationRequestId, result);
  };
  const listener: WebhookListener = await listenForWebhooks({
    ...(options.host !== undefined && { host: options.host }),
    ...(options.port !== undefined && { port: options.port }),
    onEvent: async (event) => {
      if (!event.known || event.eventType !== 'taxvalidation.validation.completed') return;
      // A result that cannot be fetched confirms nothing; the sender's retry may bring it again.
      deliver(await getResult(event.validationResultId));
    },
  });
  return {
    url: listener.url,
    close: () => listener.close(),
    waitFor(validationRequestId, waitOptions = {}) {
      const early = arrived.get(validationRequestId);
      if (early) {
        arrived.delete(validationRequestId);
        return Promise.resolve(early);
      }
      const signal = waitOptions.signal;
      if (signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const finish = (result: ValidationResult | undefined) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          waiters.delete(validationRequestId);
          resolve(result);
        };
        const onAbort = () => finish(undefined);
        const timer = setTimeout(onAbort, waitOptions.timeoutMs ?? DEFAULT_RESULT_WAIT_MS);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.set(validationRequestId, finish);
      });
    },
  };
}
