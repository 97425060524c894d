import { SvcError } from './svc-error.js';

/** The caller's `AbortSignal` fired. */
export class AbortError extends SvcError {
  override name = 'AbortError';

  constructor(message = 'The request was aborted', options?: { cause?: unknown }) {
    super(message, 'aborted', options);
  }
}
