import type { HttpClient } from '../core/http.js';
import type { Logger, RequestEvent, ResponseEvent } from '../core/logger.js';
import type { ResponseLimits } from '../core/response-limits.js';
import type { FetchLike, Transport } from '../core/transport/types.js';

/**
 * Options of a standalone {@link BotCheckClient} or `LegacyBotCheckClient` (the `svc-sdk/botcheck`
 * entry). Only `baseUrl` is required. The client needs Web APIs only: `fetch`, `AbortController`,
 * `TextEncoder`/`TextDecoder`, `atob`/`btoa`.
 */
export interface BotCheckClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com`. Required. */
  baseUrl: string | URL;
  /**
   * Key sent with every result fetch: a project API key (`ak_...`) for the current API, the
   * captcha's API key (or deprecated secret key) for the legacy API. Default: none (the service
   * answers 403).
   */
  apiKey?: string;
  /** Silence allowed per attempt (the wait for the answer, then each pause in its body), ms. Default 5000. */
  timeoutMs?: number;
  /** Retries of a request that was never written (a result fetch is never repeated once sent). Default 2. */
  maxRetries?: number;
  /** Total time budget of one call including retries, ms. Default 10000 for result fetches. */
  deadlineMs?: number;
  /**
   * The fetch function to send with. Default: the runtime's global `fetch`, looked up at each
   * call (so it is never called unbound, which Cloudflare Workers refuse).
   */
  fetch?: FetchLike;
  /** A custom transport; wins over `fetch`. Default: a transport over `fetch`. */
  transport?: Transport;
  /** Receives `debug` lines (method, URL, status, duration, request id, attempt); never a key. Default: none. */
  logger?: Logger;
  /** Called before every attempt with redacted headers. Default: none. */
  onRequest?: (event: RequestEvent) => void;
  /** Called after every attempt that got a response. Default: none. */
  onResponse?: (event: ResponseEvent) => void;
  /** Waits between retries; inject to observe backoff without waiting. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Extra text appended to the User-Agent header. Default: none. */
  userAgentSuffix?: string;
  /** Byte caps on response bodies; only `botCheck` (default 64 KiB) and `error` (default 1 MiB) apply here. */
  maxResponseBytes?: ResponseLimits;
}

/**
 * How an `SvcClient` hands its request pipeline to its bot-check clients: the shared
 * `HttpClient` and the key of the API (read at each call).
 */
export interface BotCheckPipeline {
  /** The shared request pipeline. */
  http: HttpClient;
  /** The key of the API, read at each call. */
  key: () => string | undefined;
}
