import type { Logger, RequestEvent, ResponseEvent } from './core/logger.js';
import type { ResponseLimits } from './core/response-limits.js';
import type { FetchLike, Transport } from './core/transport/types.js';

/** Options of {@link SvcClient}. Every field is optional except where the environment does not supply it. */
export interface SvcClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com`. Default: env `SVC_BASE_URL`. Required. */
  baseUrl?: string | URL;
  /** API key (prefix `ak_`) for every interface. Default: env `SVC_API_KEY`. */
  apiKey?: string;
  /** Key for the audit log API (e.g. an agency key). Default: env `SVC_AUDIT_API_KEY`, else `apiKey`. */
  auditApiKey?: string;
  /** Key for the current bot-check API. Default: env `SVC_CAPTCHA_API_KEY`, else `apiKey`. */
  captchaApiKey?: string;
  /** Key (or deprecated secret key) for the legacy bot-check API. Default: env `SVC_LEGACY_API_KEY`, else `apiKey`. */
  legacyApiKey?: string;
  /** Per-attempt timeout, ms. Default 30000 (bot-check calls: 5000). */
  timeoutMs?: number;
  /** Retries after the first attempt, where the endpoint allows retries at all. Default 2. */
  maxRetries?: number;
  /** Total time budget of one call including retries, ms. Default: none. */
  deadlineMs?: number;
  /** Use this fetch-compatible function instead of the default undici transport. */
  fetch?: FetchLike;
  /** A custom transport; wins over `fetch`. */
  transport?: Transport;
  /** Sockets per origin of the default transport. Default 64. */
  connections?: number;
  /** Receives `debug` lines (method, URL, status, duration, request id, attempt); never a key. */
  logger?: Logger;
  /** Called before every attempt with redacted headers. */
  onRequest?: (event: RequestEvent) => void;
  /** Called after every attempt that got a response. */
  onResponse?: (event: ResponseEvent) => void;
  /** Waits between retries; inject to observe backoff without waiting. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random source for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Extra text appended to the User-Agent header. */
  userAgentSuffix?: string;
  /**
   * Byte caps on response bodies per kind of endpoint (after decompression); a body past its cap
   * throws `ResponseTooLargeError` without being read further. Defaults: audit page 32 MiB,
   * bot-check result 64 KiB, tax answers 4 MiB, error bodies 1 MiB (see {@link ResponseLimits}).
   */
  maxResponseBytes?: ResponseLimits;
}
