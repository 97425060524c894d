// The core names both `svc-sdk` and `svc-sdk/botcheck` export: the errors a user catches, the
// per-call options, the logger hooks, the response limits and the fetch transport. One list, each
// entry re-exports it with `export *`. Web APIs only (the `svc-sdk/botcheck` entry loads it).
export * from './errors/public.js';
export type { RequestOptions } from './http.js';
export type { Logger, RequestEvent, ResponseEvent } from './logger.js';
export type { PatienceOptions } from './patience.js';
export type { ResponseLimits } from './response-limits.js';
export { createFetchTransport } from './transport/fetch.js';
export type {
  FetchLike,
  SilenceWatch,
  Transport,
  TransportRequest,
  TransportResponse,
} from './transport/types.js';
