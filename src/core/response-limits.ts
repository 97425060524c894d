import { SvcError } from './errors/error-classes.js';

/**
 * Byte caps on response bodies, per kind of endpoint, counted after decompression. A body past
 * its cap is not read further: the connection is dropped and the call throws
 * `ResponseTooLargeError` (never retried). Memory per call stays bounded whatever a server sends.
 */
export interface ResponseLimits {
  /** An audit log page (up to 1000 events). Default 32 MiB (33554432). */
  auditPage?: number;
  /** A bot-check result (current or legacy API). Default 64 KiB (65536). */
  botCheck?: number;
  /** A tax-validation answer (single, batch, schedule, result), and any other endpoint. Default 4 MiB (4194304). */
  tax?: number;
  /** An error body (any status outside 2xx); never above the cap of the endpoint's kind. Default 1 MiB (1048576). */
  error?: number;
}

/** The caps used when the client sets none. */
export const DEFAULT_RESPONSE_LIMITS: Readonly<Required<ResponseLimits>> = Object.freeze({
  auditPage: 32 * 1024 * 1024,
  botCheck: 64 * 1024,
  tax: 4 * 1024 * 1024,
  error: 1024 * 1024,
});

/** The kind of endpoint a path belongs to, for its byte cap. */
export type ResponseKind = 'auditPage' | 'botCheck' | 'tax';

/** Which cap applies to a request path (the path below the base URL). */
function responseKindOf(path: string): ResponseKind {
  if (path.startsWith('/platform/v1/events')) return 'auditPage';
  if (path.startsWith('/captcha/') || path.startsWith('/verifications/')) return 'botCheck';
  return 'tax';
}

/** The client's caps with defaults filled in; a cap that is not a positive integer is a config error. */
export function resolveResponseLimits(given: ResponseLimits | undefined): Required<ResponseLimits> {
  const out = { ...DEFAULT_RESPONSE_LIMITS };
  for (const name of Object.keys(DEFAULT_RESPONSE_LIMITS) as (keyof ResponseLimits)[]) {
    const value = given?.[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new SvcError(`maxResponseBytes.${name} must be a positive whole number of bytes`, 'config');
    }
    out[name] = value;
  }
  return out;
}

/** The caps of one call: success body and error body. */
export function limitsFor(
  limits: Required<ResponseLimits>,
  path: string,
): { maxBytes: number; maxErrorBytes: number } {
  const maxBytes = limits[responseKindOf(path)];
  return { maxBytes, maxErrorBytes: Math.min(limits.error, maxBytes) };
}
