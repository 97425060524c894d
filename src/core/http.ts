import { AttemptTimer, callTimeoutError } from './attempt-timer.js';
import { checkKeyFormat } from './credentials.js';
import { errorDetail, parseErrorBody, problemList } from './error-body.js';
import {
  AbortError,
  type ApiError,
  ConnectionError,
  createApiError,
  MalformedResponseError,
  ResponseTooLargeError,
  SvcError,
  TimeoutError,
  TransportError,
} from './errors/error-classes.js';
import type { Logger, RequestEvent, ResponseEvent } from './logger.js';
import { redact, redactHeaders } from './redact.js';
import { limitsFor, type ResponseLimits, resolveResponseLimits } from './response-limits.js';
import { backoffDelay, isRetryable, parseRetryAfter, type RetryPolicy } from './retry.js';
import { attemptAbort, unreadSignal } from './transport/attempt-abort.js';
import type { Transport, TransportRequest, TransportResponse } from './transport/types.js';

/** Per-call options accepted by every method of the client. */
export interface RequestOptions {
  /** Cancels the call, including waits between retries. */
  signal?: AbortSignal;
  /**
   * Silence allowed per attempt, ms: for the answer to start (connect and response headers) and
   * between chunks of the body, not for the whole download. Defaults to the client's `timeoutMs`.
   */
  timeoutMs?: number;
  /** Retries after the first attempt. Defaults to the client's `maxRetries`. */
  maxRetries?: number;
  /** Total time budget for the call including retries, ms. Defaults to the client's `deadlineMs` (none). */
  deadlineMs?: number;
}

/** How credentials travel. */
export type AuthScheme = 'bearer' | 'svc-authorization';

/** One call as a resource method describes it. */
export interface CallSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, built with the `path` helper. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  auth?: { scheme: AuthScheme; key: string | undefined };
  retry: RetryPolicy;
  /** Keep a success body unparsed (`data` stays undefined) as bytes in `bytes`: for callers that scan it themselves. */
  raw?: boolean;
  /** For a `raw` call: where to read a success body of announced length (see `TransportRequest.bodyBuffer`). */
  bodyBuffer?: (size: number) => Uint8Array;
  /** Statuses that count as success when they answer a retry (e.g. 404 after a lost DELETE response). */
  successOnRetry?: readonly number[];
  /** Default silence allowed per attempt by this endpoint, when it differs from the client's. */
  timeoutMs?: number;
  /** Default total time of this endpoint's call with its retries, when the client sets none. */
  deadlineMs?: number;
  /** Send `Content-Type: application/json` even without a body (the legacy bot-check API requires it). Default false. */
  jsonContentType?: boolean;
  options?: RequestOptions | undefined;
}

/** A successful response with its body parsed as JSON (undefined when empty). */
export interface CallResult {
  status: number;
  headers: Record<string, string | undefined>;
  data: unknown;
  /** The body text exactly as received (empty for a `raw` call). */
  text: string;
  /** The body bytes, for a `raw` call. */
  bytes?: Uint8Array;
  requestId: string | undefined;
}

/** Settings of the pipeline, resolved by `SvcClient`. */
export interface HttpSettings {
  baseUrl: URL;
  transport: Transport;
  /** Client-wide silence allowed per attempt; when unset, the endpoint's default or 30 s applies. */
  timeoutMs: number | undefined;
  maxRetries: number;
  deadlineMs: number | undefined;
  userAgent: string;
  logger: Logger | undefined;
  onRequest: ((event: RequestEvent) => void) | undefined;
  onResponse: ((event: ResponseEvent) => void) | undefined;
  /**
   * Known secrets (every key, a legacy secret), masked in every log line, error message and
   * header copied into an error. Kept private by {@link HttpClient}: not in its `settings`.
   */
  secrets: readonly string[];
  /** Byte caps on response bodies; unset caps take their defaults. */
  responseLimits?: ResponseLimits | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** Silence allowed per attempt when neither the call, the client nor the endpoint sets one. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Waits `ms`, or rejects with {@link AbortError} when the signal fires. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function requestIdOf(headers: Record<string, string | undefined>): string | undefined {
  return headers['request-id'] ?? headers['x-request-id'];
}

/**
 * The request pipeline: URL building, credentials, timeouts, retries, byte caps, logging, error
 * mapping. The secrets live in a private field: `util.inspect`, `JSON.stringify` and
 * `structuredClone` of the client never see them.
 */
export class HttpClient {
  /** The settings, without the secrets. */
  readonly settings: Readonly<Omit<HttpSettings, 'secrets'>>;
  readonly #secrets: readonly string[];
  readonly #limits: Required<ResponseLimits>;
  #lastKey: string | undefined;
  #lastKeySecrets: readonly string[] = [];
  private readonly basePath: string;
  private readonly originPrefix: string;

  constructor(settings: HttpSettings) {
    const { secrets, ...rest } = settings;
    this.settings = rest;
    this.#secrets = [...secrets];
    this.#limits = resolveResponseLimits(settings.responseLimits);
    this.basePath = settings.baseUrl.pathname.replace(/\/+$/, '');
    this.originPrefix = `${settings.baseUrl.origin}/`;
  }

  /**
   * The secrets to mask in a call with `key`: the configured ones and the key. Remembered for the
   * last key (a client sends the same key call after call), so a call copies no list; the key's
   * format is checked before it is remembered.
   */
  #secretsWith(key: string): readonly string[] {
    if (key !== this.#lastKey) {
      checkKeyFormat(key);
      this.#lastKeySecrets = [...this.#secrets, key];
      this.#lastKey = key;
    }
    return this.#lastKeySecrets;
  }

  /** The byte caps in force, defaults filled in. */
  get responseLimits(): Readonly<Required<ResponseLimits>> {
    return this.#limits;
  }

  /** `text` with every configured secret (and any `ak_` key, access token) masked: the library's one redaction. */
  redact(text: string, extra: readonly string[] = []): string {
    return redact(text, extra.length > 0 ? [...this.#secrets, ...extra] : this.#secrets);
  }

  /** The absolute URL of `path` below the base URL; always on the configured origin. */
  url(path: string, query?: CallSpec['query']): string {
    // Paths are built by the `path` helper (escaped, no dot segments), so plain concatenation is exact.
    const below = this.basePath + path;
    let slashes = 0;
    while (below.charCodeAt(slashes) === 47 /* / */) slashes++;
    let url = this.originPrefix + below.slice(slashes);
    if (query) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined) params.set(name, String(value));
      }
      const text = params.toString();
      if (text) url += `?${text}`;
    }
    return url;
  }

  async call(spec: CallSpec): Promise<CallResult> {
    const s = this.settings;
    const options = spec.options ?? NO_OPTIONS;
    const url = this.url(spec.path, spec.query);
    if (!url.startsWith(this.originPrefix)) {
      // Defence in depth: a key is only ever sent to the configured origin.
      throw new SvcError('Refusing to send credentials to another origin', 'origin_mismatch');
    }
    const key = spec.auth?.key;
    // A key that cannot travel in a header unchanged (line break, space, non-ASCII) stops here.
    let secrets = key ? this.#secretsWith(key) : this.#secrets;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': s.userAgent };
    if (spec.body !== undefined || spec.jsonContentType) headers['content-type'] = 'application/json';
    if (key) {
      if (spec.auth?.scheme === 'bearer') headers.authorization = `Bearer ${key}`;
      else headers['svc-authorization'] = key;
    }
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const maxRetries = options.maxRetries ?? s.maxRetries;
    const timeoutMs = options.timeoutMs ?? s.timeoutMs ?? spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadlineMs = options.deadlineMs ?? s.deadlineMs ?? spec.deadlineMs;
    const deadline = deadlineMs === undefined ? undefined : s.now() + deadlineMs;
    const userSignal = options.signal;
    const token = spec.query?.accessToken;
    if (typeof token === 'string') secrets = [...secrets, token];
    const { maxBytes, maxErrorBytes } = limitsFor(this.#limits, spec.path);
    // Redacted only when someone looks: the hot path of a bot-check call has no logger.
    const observed = s.logger !== undefined || s.onRequest !== undefined || s.onResponse !== undefined;
    const shownUrl = observed ? redact(url, secrets) : url;

    // Whether the previous attempt may have reached the server without its answer reaching us.
    let previousLost = false;
    for (let attempt = 1; ; attempt++) {
      if (userSignal?.aborted) throw new AbortError();
      const remaining = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - s.now();
      if (remaining <= 0)
        throw callTimeoutError('deadline', deadlineMs ?? 0, `${spec.method} ${spec.path}`, attempt - 1);
      const request: TransportRequest = {
        method: spec.method,
        url,
        headers,
        body,
        signal: unreadSignal(),
        responseType: spec.raw ? 'bytes' : 'text',
        maxBytes,
        maxErrorBytes,
      };
      if (spec.raw && spec.bodyBuffer) request.bodyBuffer = spec.bodyBuffer;
      // The transport's own abort where it has one (the undici transport), else a real AbortSignal.
      const abort = attemptAbort(s.transport, request);
      // Silence (not the whole download) is bounded by timeoutMs; the attempt by the deadline's time left.
      const timer = new AttemptTimer(abort, timeoutMs, remaining);
      request.watch = timer;
      const onUserAbort = userSignal && (() => abort.abort());
      if (onUserAbort) userSignal?.addEventListener('abort', onUserAbort, { once: true });
      s.onRequest?.({
        method: spec.method,
        url: shownUrl,
        headers: redactHeaders(headers, secrets),
        attempt,
      });
      const started = s.now();

      let response: TransportResponse | undefined;
      let failure: SvcError | undefined;
      try {
        response = await s.transport.request(request);
        // A custom transport may ignore the caps: the body is checked again (too late for memory).
        const size = response.bytes ? response.bytes.length : response.body.length;
        const cap = response.status >= 200 && response.status < 300 ? maxBytes : maxErrorBytes;
        if (size > cap) throw new ResponseTooLargeError('', cap, response.status);
      } catch (error) {
        response = undefined;
        if (userSignal?.aborted) failure = new AbortError(undefined, { cause: error });
        else if (error instanceof ResponseTooLargeError)
          failure = new ResponseTooLargeError(
            `Response to ${spec.method} ${spec.path} is larger than the limit of ${error.limitBytes} bytes` +
              `${error.status === undefined ? '' : ` (status ${error.status})`}; stopped reading`,
            error.limitBytes,
            error.status,
            { cause: error },
          );
        else if (timer.expired)
          failure = callTimeoutError(
            timer.expired,
            timer.expired === 'deadline' ? (deadlineMs ?? 0) : timeoutMs,
            `${spec.method} ${spec.path}`,
            attempt,
            error,
          );
        else if (error instanceof SvcError) failure = error;
        // A transport reports network failures as ConnectionError; anything else it throws is local.
        else
          failure = new TransportError(
            `Request could not be made: ${spec.method} ${spec.path}: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
      } finally {
        timer.stop();
        if (onUserAbort) userSignal?.removeEventListener('abort', onUserAbort);
      }
      const durationMs = s.now() - started;

      if (response) {
        // A server may echo a key in any header: the copy kept in errors and logs is redacted.
        const rawRequestId = requestIdOf(response.headers);
        const requestId = rawRequestId === undefined ? undefined : redact(rawRequestId, secrets);
        s.onResponse?.({
          method: spec.method,
          url: shownUrl,
          status: response.status,
          durationMs,
          requestId,
          attempt,
        });
        s.logger?.debug(
          `HTTP ${spec.method} ${shownUrl} -> ${response.status} ${durationMs}ms` +
            `${requestId ? ` request-id=${requestId}` : ''} attempt=${attempt}`,
        );
        const lateSuccess = previousLost && spec.successOnRetry?.includes(response.status);
        if ((response.status >= 200 && response.status < 300) || lateSuccess) {
          let data: unknown;
          if (response.body !== '' && !lateSuccess && !spec.raw) {
            try {
              data = JSON.parse(response.body);
            } catch (error) {
              throw new MalformedResponseError(`Response is not JSON: ${spec.method} ${spec.path}`, {
                cause: error,
              });
            }
          }
          const result: CallResult = {
            status: response.status,
            headers: response.headers,
            data,
            text: response.body,
            requestId,
          };
          // A custom transport may ignore responseType and give text only.
          if (spec.raw) result.bytes = response.bytes ?? new TextEncoder().encode(response.body);
          return result;
        }
        previousLost = false;
        const apiError = this.toApiError(spec, response, requestId, secrets);
        if (attempt <= maxRetries && isRetryable(spec.retry, { status: response.status })) {
          await this.pause(attempt, response.headers['retry-after'], deadline, userSignal, apiError);
          continue;
        }
        throw apiError;
      }

      const error = failure as SvcError;
      // A network library may quote what it was given; no configured secret leaves in a message.
      error.message = redact(error.message, secrets);
      s.logger?.debug(`HTTP ${spec.method} ${shownUrl} -> ${error.name} ${durationMs}ms attempt=${attempt}`);
      previousLost = error instanceof TimeoutError || (error instanceof ConnectionError && error.requestSent);
      if (!(error instanceof AbortError) && attempt <= maxRetries && isRetryable(spec.retry, { error })) {
        await this.pause(attempt, undefined, deadline, userSignal, error);
        continue;
      }
      throw error;
    }
  }

  private async pause(
    attempt: number,
    retryAfter: string | undefined,
    deadline: number | undefined,
    signal: AbortSignal | undefined,
    lastError: SvcError,
  ): Promise<void> {
    const s = this.settings;
    const delay = backoffDelay(attempt, retryAfter, { random: s.random, now: s.now });
    if (deadline !== undefined && s.now() + delay >= deadline) throw lastError;
    s.logger?.debug(`retrying in ${delay}ms after ${lastError.name} (retry ${attempt})`);
    await s.sleep(delay, signal);
  }

  private toApiError(
    spec: CallSpec,
    response: TransportResponse,
    requestId: string | undefined,
    secrets: readonly string[],
  ): ApiError {
    // A server that echoes the key must not put it into an error a caller may log whole.
    const text = response.bytes ? new TextDecoder().decode(response.bytes) : response.body;
    const body = parseErrorBody(redact(text, secrets));
    const problems = response.status === 422 ? problemList(body) : undefined;
    const firstDetail = errorDetail(body);
    const rawDetail = problems ? (firstDetail ? `${firstDetail}: ${problems}` : problems) : firstDetail;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.settings.now);
    const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
    const detail =
      response.status >= 300 && response.status < 400
        ? `redirect to ${response.headers.location ? redact(response.headers.location, secrets) : 'another location'} not followed`
        : rawDetail;
    return createApiError({
      status: response.status,
      method: spec.method,
      path: spec.path,
      requestId,
      body,
      detail,
      retryAfterSeconds,
    });
  }
}
