import { SvcError } from './svc-error.js';

/** A success response that is not what the API promises: not JSON, invalid JSON, or not UTF-8. Not retried. */
export class MalformedResponseError extends SvcError {
  override name = 'MalformedResponseError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'bad_response', options);
  }
}
