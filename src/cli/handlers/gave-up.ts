import { AbortError, ApiError, ConnectionError, TimeoutError } from '../../core/errors/error-classes.js';

/**
 * Whether a read stopped because the service kept refusing or failing it (408, 429, 5xx, a
 * timeout, a broken connection: retried until `--max-retries` and `--retry-for` were spent),
 * which running the command again can fix; not an abort, a bad key or a bad answer.
 */
export function gaveUp(error: unknown): error is Error {
  if (error instanceof AbortError) return false;
  if (error instanceof ApiError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

/** Appends what was kept and how to go on to a read's error line, when it gave up; the error either way. */
export function withWayOn(error: unknown, wayOn: () => string): unknown {
  if (gaveUp(error)) error.message += `; ${wayOn()}`;
  return error;
}
