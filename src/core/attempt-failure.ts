import { callTimeoutError } from './attempt-timer.js';
import {
  AbortError,
  ConnectionError,
  ResponseTooLargeError,
  SvcError,
  TimeoutError,
  type TimeoutPhase,
  TransportError,
} from './errors/error-classes.js';

/** What the pipeline knew about an attempt that threw, to name the failure. */
export interface FailedAttempt {
  method: string;
  path: string;
  /** The attempt's number, 1 for the first. */
  attempt: number;
  /** Whether the caller's signal fired: then it is an abort, whatever the transport threw. */
  aborted: boolean;
  /** What ran out of the attempt's clock, if anything did. */
  expired: TimeoutPhase | undefined;
  timeoutMs: number;
  deadlineMs: number | undefined;
}

/**
 * The library's error for what a transport threw in one attempt, checked in this order: the
 * caller's abort, a body over its cap, the attempt's timeout or the call's deadline, an error the
 * transport already named, and anything else as a local {@link TransportError}.
 */
export function attemptFailure(error: unknown, at: FailedAttempt): SvcError {
  if (at.aborted) return new AbortError(undefined, { cause: error });
  if (error instanceof ResponseTooLargeError) {
    return new ResponseTooLargeError(
      `Response to ${at.method} ${at.path} is larger than the limit of ${error.limitBytes} bytes` +
        `${error.status === undefined ? '' : ` (status ${error.status})`}; stopped reading`,
      error.limitBytes,
      error.status,
      { cause: error },
    );
  }
  if (at.expired) {
    const limitMs = at.expired === 'deadline' ? (at.deadlineMs ?? 0) : at.timeoutMs;
    return callTimeoutError(at.expired, limitMs, `${at.method} ${at.path}`, at.attempt, error);
  }
  if (error instanceof SvcError) return error;
  // A transport reports network failures as ConnectionError; anything else it throws is local.
  return new TransportError(
    `Request could not be made: ${at.method} ${at.path}: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

/** Whether a failed attempt may have reached the server without its answer reaching us. */
export function mayHaveArrived(error: SvcError): boolean {
  return error instanceof TimeoutError || (error instanceof ConnectionError && error.requestSent);
}
