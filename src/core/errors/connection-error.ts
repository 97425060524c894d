import { SvcError } from './svc-error.js';

/** The server could not be reached, or the connection broke before a full response arrived. */
export class ConnectionError extends SvcError {
  override name = 'ConnectionError';
  /**
   * false when the failure happened before any byte of the request was written (connection
   * refused, DNS failure, connect timeout): the server cannot have acted on it, so even a
   * non-idempotent call may be retried.
   */
  readonly requestSent: boolean;

  constructor(message: string, requestSent: boolean, options?: { cause?: unknown }) {
    super(message, 'connection', options);
    this.requestSent = requestSent;
  }
}
