import { SvcError } from './svc-error.js';

/**
 * The request could not be made for a local reason, not a network failure: the runtime refused
 * it (Deno without `--allow-net`), the `fetch` implementation rejected it (an invalid header, a
 * `fetch` called on the wrong object), or a transport threw something that is not a
 * {@link ConnectionError}. The service was not reached, so this is never taken for
 * an outage (no retry, no `failOpen`). The original error is the `cause`.
 */
export class TransportError extends SvcError {
  override name = 'TransportError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'transport', options);
  }
}
