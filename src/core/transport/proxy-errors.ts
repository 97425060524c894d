import { ConnectionError, TransportError } from '../errors/error-classes.js';
import { codeOf, isNetworkFailure, NOT_SENT_CODES, tlsFailureLine } from './network-errors.js';

/** What went wrong with a proxy, for errors made here: it could not be reached, or it refused. */
export type ProxyFault = 'unreachable' | 'refused';

const FAULTS = new WeakMap<object, ProxyFault>();

/** Whether an error is a proxy's failure (made by {@link proxiedFailure}), and which; else undefined. */
export function proxyFaultOf(error: unknown): ProxyFault | undefined {
  return typeof error === 'object' && error !== null ? FAULTS.get(error) : undefined;
}

function marked<E extends Error>(error: E, fault: ProxyFault): E {
  FAULTS.set(error, fault);
  return error;
}

/** A proxy as messages name it: `proxy host:port`, never its user name or password. */
function shown(proxy: URL): string {
  return `proxy ${proxy.host}`;
}

/** What a proxy's status means, in words. */
function statusWords(status: number, proxy: URL): string {
  if (isAuthStatus(status)) {
    const what = status === 407 ? '407 Proxy Authentication Required' : '401 Unauthorized';
    return proxy.username || proxy.password
      ? `the proxy refused its user name and password (${what}): check them in the proxy URL`
      : `the proxy asks for a user name and password (${what}): put them in the proxy URL, before its host and an @ (user:password@)`;
  }
  if (status === 403) return 'the proxy does not allow this host or port (403)';
  if (status === 502 || status === 503 || status === 504) return `the proxy could not reach it (${status})`;
  return `the proxy answered ${status}`;
}

/** 407, or the 401 some proxies (tinyproxy) send for a wrong password. */
const isAuthStatus = (status: number) => status === 407 || status === 401;

/**
 * Whether an answer to a request through a proxy is the proxy's refusal of its credentials
 * rather than the service's: a 407, or a 401 asking for `Basic` credentials (tinyproxy answers
 * a wrong password so; the service asks for keys, never for Basic credentials).
 */
export function isProxyAuthAnswer(status: number, headers: Record<string, unknown>): boolean {
  if (status === 407) return true;
  const challenge = headers['www-authenticate'];
  return status === 401 && typeof challenge === 'string' && /^\s*basic\b/i.test(challenge);
}

/**
 * A proxy's refusal: a 407 or 401 is a {@link TransportError} (the credentials are wrong: a
 * retry would fail alike), any other status a {@link ConnectionError} with nothing sent to the
 * service.
 */
export function proxyAnswer(status: number, target: string, proxy: URL): ConnectionError | TransportError {
  const line = `${shown(proxy)} did not pass the request to ${target} on: ${statusWords(status, proxy)}`;
  return marked(
    isAuthStatus(status) ? new TransportError(line) : new ConnectionError(line, false),
    'refused',
  );
}

/**
 * The error of a request through `proxy` that failed before an answer, naming the proxy (host
 * and port only) where the failure is the proxy's, never as the service's:
 * - the proxy cannot be reached (refused, no such host, connect timeout): a {@link ConnectionError}
 *   with nothing sent, `Connection to proxy HOST:PORT failed: ECONNREFUSED (the proxy of TARGET)`;
 * - the proxy refused the tunnel or the request (undici reports its status; a 407 to an
 *   absolute-URL request it reports as `Proxy Authentication Required (407)`): {@link proxyAnswer};
 * - a TLS failure of the service through the tunnel: the line of a direct request;
 * - a connection that broke later: the service's, with the proxy named.
 */
export function proxiedFailure(error: unknown, target: string, proxy: URL): ConnectionError | TransportError {
  const code = codeOf(error);
  const status = proxyStatus(error, code);
  if (status !== undefined) return proxyAnswer(status, target, proxy);
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    const line = `Connection to ${shown(proxy)} failed: ${code} (the proxy of ${target})`;
    return marked(new ConnectionError(line, false, { cause: error }), 'unreachable');
  }
  const tls = tlsFailureLine(error, target);
  if (tls !== undefined) return new TransportError(tls, { cause: error });
  const via = `${target} through ${shown(proxy)}`;
  if (isNetworkFailure(error))
    return new ConnectionError(`Connection to ${via} failed: ${code ?? 'network error'}`, true, {
      cause: error,
    });
  const what = code ?? (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  return new TransportError(`Request to ${via} could not be made: ${what}`, { cause: error });
}

/**
 * The status a proxy refused with, as undici reports it: its only report of a CONNECT answer
 * other than 200 is an `UND_ERR_ABORTED` error whose message holds the status
 * (`Proxy response (407) !== 200 when HTTP Tunneling`), and of a 407 to an absolute-URL request
 * an `UND_ERR_INVALID_ARG` one (`Proxy Authentication Required (407)`).
 */
function proxyStatus(error: unknown, code: string | undefined): number | undefined {
  if (code !== 'UND_ERR_ABORTED' && code !== 'UND_ERR_INVALID_ARG') return undefined;
  const message = error instanceof Error ? error.message : '';
  const tunnel = /^Proxy response \((\d{3})\)/.exec(message);
  if (tunnel) return Number(tunnel[1]);
  return /Proxy Authentication Required \(407\)/.test(message) ? 407 : undefined;
}
