import { ConnectionError, TransportError } from '../errors/error-classes.js';

// Codes that mean no byte of the request reached the server.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  // Bun before it used errno names.
  'ConnectionRefused',
  'FailedToOpenSocket',
]);

// Codes of a connection that broke once the request may have been written (Node, undici, Bun).
const BROKEN_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ConnectionClosed',
]);

function codeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True for the abort raised when the request's signal fires. */
export function isAbortLike(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return (
    name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || name === 'TimeoutError'
  );
}

/**
 * Whether a request failure is the network's (the service could not be reached, or the
 * connection broke), told by the error's class and fields, never by its message:
 * - Node, undici, edge-runtime and Bun give a `code` (on the error or its `cause`): only network
 *   codes count; `ERR_INVALID_URL`, parser errors (`HPE_*`) and the like are local or malformed.
 * - workerd gives no code but marks a lost connection `retryable: true`.
 * - Deno, per the Fetch standard, rejects with a `TypeError` whose `cause` is the failure.
 * Anything else (Deno's `NotCapable` without `--allow-net`, a `TypeError` without a cause such as
 * workerd's "Illegal invocation", an error thrown while a transport loads) is local.
 */
export function isNetworkFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) return NOT_SENT_CODES.has(code) || BROKEN_CODES.has(code);
  if (!error || typeof error !== 'object') return false;
  if ((error as { retryable?: unknown }).retryable === true) return true;
  return error instanceof TypeError && (error as { cause?: unknown }).cause instanceof Error;
}

/** Wraps a low-level network failure; the message names the code, never a header or key. */
export function toConnectionError(error: unknown, target: string): ConnectionError {
  const code = codeOf(error);
  const sent = code === undefined ? true : !NOT_SENT_CODES.has(code);
  const what = code ?? (error instanceof Error ? error.message : 'network error');
  return new ConnectionError(`Connection to ${target} failed: ${what}`, sent, { cause: error });
}

/**
 * The error for a request that failed before a response arrived: a {@link ConnectionError} when
 * the network failed ({@link isNetworkFailure}), else a {@link TransportError} (a local failure:
 * not retried, never an outage).
 */
export function toRequestFailure(error: unknown, target: string): ConnectionError | TransportError {
  if (isNetworkFailure(error)) return toConnectionError(error, target);
  const what = codeOf(error) ?? (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  return new TransportError(`Request to ${target} could not be made: ${what}`, { cause: error });
}
