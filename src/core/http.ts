import { attemptFailure, mayHaveArrived } from './attempt-failure.js';
import { AttemptTimer, callTimeoutError } from './attempt-timer.js';
import { checkKeyFormat } from './credentials.js';
import { AbortError, ResponseTooLargeError, SvcError } from './errors/error-classes.js';
import type { Logger, RequestEvent, ResponseEvent } from './logger.js';
import { redact, redactHeaders } from './redact.js';
import { responseError } from './response-error.js';
import { limitsFor, type ResponseLimits, resolveResponseLimits } from './response-limits.js';
import { backoffDelay, isRetryable, type RetryPolicy } from './retry.js';
import { type CallResult, JSON_BODY, type SuccessReader } from './success-body.js';
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

/** One call made ready to send: what all its attempts share. */
interface PreparedCall<T> {
  readonly spec: CallSpec;
  readonly reader: SuccessReader<T>;
  readonly url: string;
  /** The URL as logs and hooks see it (redacted when anyone looks). */
  readonly shownUrl: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly secrets: readonly string[];
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly deadlineMs: number | undefined;
  /** When the call's time is up (the `now()` clock), if it has a deadline. */
  readonly deadline: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxBytes: number;
  readonly maxErrorBytes: number;
  /** Whether the previous attempt may have reached the server without its answer reaching us. */
  previousLost: boolean;
  /** How long the last attempt took, ms. */
  durationMs: number;
}

/** Another attempt is due, after the pause `retryAfter` (or the backoff) allows. */
class Retry {
  constructor(
    readonly error: SvcError,
    readonly retryAfter: string | undefined,
  ) {}
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

  /** Sends `spec`, with its retries, and parses a success body as JSON. */
  call(spec: CallSpec): Promise<CallResult> {
    return this.read(spec, JSON_BODY);
  }

  /**
   * Sends `spec` like {@link call}, `reader` making the result of a success (bulk-read.ts): the
   * call is prepared once, then each attempt is settled as that result, a retry after a pause, or
   * a thrown error.
   */
  async read<T>(spec: CallSpec, reader: SuccessReader<T>): Promise<T> {
    const call = this.#prepare(spec, reader);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(call, attempt);
      const settled =
        outcome instanceof SvcError
          ? this.#settleFailure(call, outcome, attempt)
          : this.#settleResponse(call, outcome, attempt);
      if (!(settled instanceof Retry)) return settled;
      await this.pause(attempt, settled.retryAfter, call.deadline, call.signal, settled.error);
    }
  }

  /** What every attempt of `spec` shares: URL, headers, body, secrets to mask, limits. */
  #prepare<T>(spec: CallSpec, reader: SuccessReader<T>): PreparedCall<T> {
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
    const deadlineMs = options.deadlineMs ?? s.deadlineMs ?? spec.deadlineMs;
    const token = spec.query?.accessToken;
    if (typeof token === 'string') secrets = [...secrets, token];
    const { maxBytes, maxErrorBytes } = limitsFor(this.#limits, spec.path);
    // Redacted only when someone looks: the hot path of a bot-check call has no logger.
    const observed = s.logger !== undefined || s.onRequest !== undefined || s.onResponse !== undefined;
    return {
      spec,
      reader,
      url,
      shownUrl: observed ? redact(url, secrets) : url,
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      secrets,
      maxRetries: options.maxRetries ?? s.maxRetries,
      timeoutMs: options.timeoutMs ?? s.timeoutMs ?? spec.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      deadlineMs,
      deadline: deadlineMs === undefined ? undefined : s.now() + deadlineMs,
      signal: options.signal,
      maxBytes,
      maxErrorBytes,
      previousLost: false,
      durationMs: 0,
    };
  }

  /**
   * One exchange with the transport under the attempt's clock: the response, or what the
   * transport threw, named ({@link attemptFailure}). Its duration is left in `call.durationMs`.
   */
  async #attempt<T>(call: PreparedCall<T>, attempt: number): Promise<TransportResponse | SvcError> {
    const s = this.settings;
    const { spec, reader, signal: userSignal } = call;
    if (userSignal?.aborted) throw new AbortError();
    const remaining = call.deadline === undefined ? Number.POSITIVE_INFINITY : call.deadline - s.now();
    if (remaining <= 0)
      throw callTimeoutError('deadline', call.deadlineMs ?? 0, `${spec.method} ${spec.path}`, attempt - 1);
    const request: TransportRequest = {
      method: spec.method,
      url: call.url,
      headers: call.headers,
      body: call.body,
      signal: unreadSignal(),
      responseType: reader.responseType,
      maxBytes: call.maxBytes,
      maxErrorBytes: call.maxErrorBytes,
    };
    if (reader.bodyBuffer) request.bodyBuffer = reader.bodyBuffer;
    // The transport's own abort where it has one (the undici transport), else a real AbortSignal.
    const abort = attemptAbort(s.transport, request);
    // Silence (not the whole download) is bounded by timeoutMs; the attempt by the deadline's time left.
    const timer = new AttemptTimer(abort, call.timeoutMs, remaining);
    request.watch = timer;
    const onUserAbort = userSignal && (() => abort.abort());
    if (onUserAbort) userSignal?.addEventListener('abort', onUserAbort, { once: true });
    s.onRequest?.({
      method: spec.method,
      url: call.shownUrl,
      headers: redactHeaders(call.headers, call.secrets),
      attempt,
    });
    const started = s.now();
    try {
      const response = await s.transport.request(request);
      // A custom transport may ignore the caps: the body is checked again (too late for memory).
      const size = response.bytes ? response.bytes.length : response.body.length;
      const cap = response.status >= 200 && response.status < 300 ? call.maxBytes : call.maxErrorBytes;
      if (size > cap) throw new ResponseTooLargeError('', cap, response.status);
      call.durationMs = s.now() - started;
      return response;
    } catch (error) {
      const failure = attemptFailure(error, {
        method: spec.method,
        path: spec.path,
        attempt,
        aborted: userSignal?.aborted === true,
        expired: timer.expired,
        timeoutMs: call.timeoutMs,
        deadlineMs: call.deadlineMs,
      });
      call.durationMs = s.now() - started;
      return failure;
    } finally {
      timer.stop();
      if (onUserAbort) userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** The result of a response, a {@link Retry} of a retryable error status, or (thrown) its error. */
  #settleResponse<T>(call: PreparedCall<T>, response: TransportResponse, attempt: number): T | Retry {
    const s = this.settings;
    const { spec, shownUrl, durationMs } = call;
    // A server may echo a key in any header: the copy kept in errors and logs is redacted.
    const rawRequestId = requestIdOf(response.headers);
    const requestId = rawRequestId === undefined ? undefined : redact(rawRequestId, call.secrets);
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
    const lateSuccess = call.previousLost && spec.successOnRetry?.includes(response.status) === true;
    if ((response.status >= 200 && response.status < 300) || lateSuccess) {
      return call.reader.read(response, requestId, lateSuccess, spec);
    }
    call.previousLost = false;
    const apiError = responseError(spec, response, requestId, call.secrets, s.now);
    if (attempt <= call.maxRetries && isRetryable(spec.retry, { status: response.status })) {
      return new Retry(apiError, response.headers['retry-after']);
    }
    throw apiError;
  }

  /** A {@link Retry} of a retryable failure, or (thrown) the failure, its message redacted. */
  #settleFailure<T>(call: PreparedCall<T>, error: SvcError, attempt: number): Retry {
    const { spec, durationMs } = call;
    // A network library may quote what it was given; no configured secret leaves in a message.
    error.message = redact(error.message, call.secrets);
    this.settings.logger?.debug(
      `HTTP ${spec.method} ${call.shownUrl} -> ${error.name} ${durationMs}ms attempt=${attempt}`,
    );
    call.previousLost = mayHaveArrived(error);
    if (!(error instanceof AbortError) && attempt <= call.maxRetries && isRetryable(spec.retry, { error })) {
      return new Retry(error, undefined);
    }
    throw error;
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
}
