import { ConnectionError, TransportError } from '../errors/error-classes.js';

// Codes that mean no byte of the request reached the server.
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
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

/** The code of an error or of its causes (up to 4 deep). */
export function codeOf(error: unknown): string | undefined {
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
 * not retried, never an outage), in words with the fix for a TLS failure ({@link tlsFailureLine}).
 */
export function toRequestFailure(error: unknown, target: string): ConnectionError | TransportError {
  if (isNetworkFailure(error)) return toConnectionError(error, target);
  const tls = tlsFailureLine(error, target);
  if (tls !== undefined) return new TransportError(tls, { cause: error });
  const what = codeOf(error) ?? (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  return new TransportError(`Request to ${target} could not be made: ${what}`, { cause: error });
}

/** The fix of a certificate no trusted CA signed (the CLI says `--ca-file` for "the ca option"). */
export const UNTRUSTED_FIX = 'add your CA with the ca option or NODE_EXTRA_CA_CERTS';

// OpenSSL's verification codes of a certificate no trusted CA vouches for, in words.
const UNTRUSTED: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'issuer certificate not found',
  UNABLE_TO_GET_ISSUER_CERT: 'issuer certificate not found',
  CERT_SIGNATURE_FAILURE: 'certificate signature failure',
};

/**
 * A TLS failure in words, with its fix, or undefined for any other error (told by its code):
 * a certificate no trusted CA signed, an expired or not yet valid one, one for another host
 * name, and an https:// URL whose server speaks plain HTTP.
 */
export function tlsFailureLine(error: unknown, target: string): string | undefined {
  const code = codeOf(error);
  if (code === undefined) return undefined;
  const untrusted = UNTRUSTED[code];
  if (untrusted) return `certificate of ${target} not trusted (${untrusted}): ${UNTRUSTED_FIX}`;
  if (code === 'CERT_HAS_EXPIRED')
    return `certificate of ${target} has expired: the server must renew it (or this machine's clock is wrong)`;
  if (code === 'CERT_NOT_YET_VALID')
    return `certificate of ${target} is not valid yet: check this machine's clock`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (error as { cert?: { subjectaltname?: unknown } }).cert?.subjectaltname;
    const named = typeof names === 'string' && names !== '' ? `; it names ${names}` : '';
    return `certificate of ${target} is for another host name${named}: use a base URL with a name the certificate holds`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST')
    return `the server at ${target} speaks plain HTTP: use http://`;
  return undefined;
}

/** The line of an http:// request to a server that answered in TLS (see tls-probe.ts). */
export function speaksTlsLine(target: string): string {
  return `the server at ${target} speaks TLS: use https://`;
}
