import type { TaxClient } from '../../tax/client.js';
import {
  type CompletionWatch,
  type CompletionWatchOptions,
  DEFAULT_RESULT_WAIT_MS,
} from '../../tax/completion-watch.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import { listenForWebhooks, type WebhookListener } from './listen.js';

/**
 * Starts a {@link CompletionWatch}: a local webhook listener whose completion events fetch their
 * result with `tax.getResult` (events prove nothing by themselves). Node only.
 *
 * @example
 * const watch = await watchCompletions(client.tax);
 * // register watch.url as the webhook endpoint, then:
 * const outcome = await client.tax.validate(params, { wait: { watch } });
 * await watch.close();
 */
export async function watchCompletions(
  tax: Pick<TaxClient, 'getResult'>,
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
      deliver(await tax.getResult(event.validationResultId));
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
