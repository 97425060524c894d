import { SvcError } from './svc-error.js';

/** An attempt took longer than `timeoutMs`, or the call passed its total `deadlineMs`. */
export class TimeoutError extends SvcError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, 'timeout', options);
    this.timeoutMs = timeoutMs;
  }
}
