import type { Logger, RequestEvent, ResponseEvent } from './core/logger.js';
import type { ProxyOption } from './core/proxy-rules.js';
import type { ResponseLimits } from './core/response-limits.js';
import type { FetchLike, Transport } from './core/transport/types.js';

/**
 * Options of {@link SvcClient}. Every field is optional except `baseUrl`, which must be given here
 * or come from `env`. The environment of the process is read only when you pass it as `env` (or call
 * `SvcClient.fromEnv()`).
 */
export interface SvcClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com`. With `env`: default `SVC_BASE_URL`. Required. */
  baseUrl?: string | URL;
  /**
   * An environment to take defaults from: `SVC_BASE_URL`, `SVC_API_KEY`, `SVC_AUDIT_API_KEY`,
   * `SVC_CAPTCHA_API_KEY`, `SVC_LEGACY_API_KEY` fill the options left out here (an empty variable
   * counts as unset), and `https_proxy`/`HTTPS_PROXY`, `http_proxy`/`HTTP_PROXY`,
   * `no_proxy`/`NO_PROXY` (lower case first, as curl reads them) fill `proxy`. Default: none, no
   * environment is read. `SvcClient.fromEnv()` passes the environment of the process here.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** API key (prefix `ak_`) for every interface. With `env`: default `SVC_API_KEY`. Default: none. */
  apiKey?: string;
  /** Key for the audit log API (e.g. an agency key). With `env`: default `SVC_AUDIT_API_KEY`. Default: `apiKey`. */
  auditApiKey?: string;
  /** Key for the current bot-check API. With `env`: default `SVC_CAPTCHA_API_KEY`. Default: `apiKey`. */
  captchaApiKey?: string;
  /** Key (or deprecated secret key) for the legacy bot-check API. With `env`: default `SVC_LEGACY_API_KEY`. Default: `apiKey`. */
  legacyApiKey?: string;
  /**
   * Silence allowed per attempt, ms: the most an attempt waits for the answer to start (connect
   * and response headers) and then between two chunks of the body. A slow body that keeps
   * arriving is not cut, however long it takes (bound that with `deadlineMs`); a silent one is,
   * with `TimeoutError` (`phase` `answer` or `body`). Like aws' `--cli-read-timeout`. A custom
   * transport that does not report what arrives (`TransportRequest.watch`) gets this bound on the
   * whole attempt. Default 30000 (bot-check calls: 5000).
   */
  timeoutMs?: number;
  /** Retries after the first attempt, where the endpoint allows retries at all. Default 2. */
  maxRetries?: number;
  /**
   * Total time of one call, ms: every attempt, body included, and the waits between them. Past
   * it the call ends with `TimeoutError` (`phase` `deadline`); a retry that could not start
   * before it is not made. Default: none (each attempt is bounded by `timeoutMs` of silence
   * only), except bot-check result fetches: 10000, so a form submit fails closed in time even
   * against a server that trickles its answer.
   */
  deadlineMs?: number;
  /**
   * Use this fetch-compatible function instead of the default transport. Default: chosen once per
   * runtime, undici on Node, the global `fetch` on Bun, Deno, workerd and edge runtimes.
   */
  fetch?: FetchLike;
  /** A custom transport; wins over `fetch`. */
  transport?: Transport;
  /** Sockets per origin of the default transport on Node. Default 64. */
  connections?: number;
  /**
   * The HTTP proxy of every request: one proxy URL for http and https (`http://user:pass@host:3128`;
   * the user name and password go as `Proxy-Authorization: Basic` and appear in no log or error),
   * {@link ProxySettings} per scheme with curl's `noProxy` list, or `false` for none. https URLs
   * go through a CONNECT tunnel, http URLs as requests to the proxy (undici's `ProxyAgent`).
   * Needs the default transport on Node: with `fetch`, `transport` or on another runtime it throws
   * `SvcError` code `config`. Default: with `env`, its proxy variables; else, under Node's
   * `NODE_USE_ENV_PROXY=1`, the process's; else none (direct).
   */
  proxy?: ProxyOption;
  /**
   * PEM text of CA certificates to trust besides Node's own roots (never instead of them: with
   * `ca`, the trusted set is Node's default one, `NODE_EXTRA_CA_CERTS` and `--use-system-ca`
   * included, plus these), for the service and an https:// proxy. A file's content, not its path.
   * Needs the default transport on Node (else `SvcError` code `config`). Default: none, Node's set.
   */
  ca?: string | readonly string[];
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
