import { SvcError } from './svc-error.js';

/**
 * A response body passed its byte cap (`maxResponseBytes` of the client, after decompression).
 * The body was not read further and the connection was dropped; the call is not retried.
 */
export class ResponseTooLargeError extends SvcError {
  override name = 'ResponseTooLargeError';
  /** The cap that was passed, in bytes. */
  readonly limitBytes: number;
  /** HTTP status of the oversized response. */
  readonly status: number | undefined;

  constructor(message: string, limitBytes: number, status?: number, options?: { cause?: unknown }) {
    super(message, 'response_too_large', options);
    this.limitBytes = limitBytes;
    this.status = status;
  }
}
