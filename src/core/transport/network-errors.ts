import { ConnectionError } from '../errors/connection-error.js';

// Codes that mean no byte of the request reached the server.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
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

/** Wraps a low-level network failure; the message names the code, never a header or key. */
export function toConnectionError(error: unknown, target: string): ConnectionError {
  const code = codeOf(error);
  const sent = code === undefined ? true : !NOT_SENT_CODES.has(code);
  const what = code ?? (error instanceof Error ? error.message : 'network error');
  return new ConnectionError(`Connection to ${target} failed: ${what}`, sent, { cause: error });
}
