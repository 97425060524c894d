export { SvcClient } from './client.js';
export type { SvcClientOptions } from './client-options.js';
export * from './core/errors/index.js';
export type { RequestOptions } from './core/http.js';
export type { Logger, RequestEvent, ResponseEvent } from './core/logger.js';
export { maskKey, redact, redactHeaders } from './core/redact.js';
export {
  backoffDelay,
  parseRetryAfter,
  RETRY_IDEMPOTENT_DELETE,
  RETRY_SAFE,
  RETRY_UNSENT_ONLY,
  type RetryPolicy,
} from './core/retry.js';
export { createFetchTransport } from './core/transport/fetch.js';
export type { FetchLike, Transport, TransportRequest, TransportResponse } from './core/transport/types.js';
export { createUndiciTransport, type UndiciTransportOptions } from './core/transport/undici.js';
export { VERSION } from './version.js';
