// The core error hierarchy: the base class, an API error per status and the factory that picks
// it, and the errors of the transport, of local validation, of files and of paging. Errors that
// belong to one area (the bot check's, a batch file's, the archive's) live beside that area's code
// and extend these. Class definitions only: nothing runs at import.

/** Base class of every error this package throws. Messages never contain an API key. */
export class SvcError extends Error {
  override name = 'SvcError';
  /** Stable machine-readable code, e.g. `http_404`, `connection`, `timeout`, `local_validation`. */
  readonly code: string;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Type guard for any error of this package. */
export function isSvcError(value: unknown): value is SvcError {
  return value instanceof SvcError;
}

/** The caller's `AbortSignal` fired. */
export class AbortError extends SvcError {
  override name = 'AbortError';

  constructor(message = 'The request was aborted', options?: { cause?: unknown }) {
    super(message, 'aborted', options);
  }
}

/** What an {@link ApiError} knows about the failed exchange. */
export interface ApiErrorInit {
  status: number;
  method: string;
  /** Path of the request (no query string, no host), e.g. `/taxvalidation/v1/validations`. */
  path: string;
  /** Value of the `Request-Id` (or `X-Request-Id`) response header when present. */
  requestId?: string | undefined;
  /** The parsed JSON body, or the raw text when the body is not JSON. */
  body?: unknown;
  /** A human message taken from the body (`detail`, `message`, `error` or `title`). */
  detail?: string | undefined;
  /** Seconds from a `Retry-After` header (delta seconds, or an HTTP date from now, rounded up), when present. */
  retryAfterSeconds?: number | undefined;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The text for an HTTP status, e.g. `Not Found`. */
export function statusText(status: number): string {
  return (
    REASONS[status] ?? (status >= 500 ? 'Server Error' : status >= 300 && status < 400 ? 'Redirect' : 'Error')
  );
}

/**
 * The server answered with a status that is not a success.
 * Message format: `403 Forbidden: GET /captcha/v2/verifications/<id>/results` followed by the server's detail.
 */
export class ApiError extends SvcError {
  override name = 'ApiError';
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit, message?: string) {
    const base = `${init.status} ${statusText(init.status)}: ${init.method} ${init.path}`;
    super(message ?? (init.detail ? `${base} (${init.detail})` : base), `http_${init.status}`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.body = init.body;
    this.detail = init.detail;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 400: the request was malformed (legacy bot check: id not a UUID, or access token format). */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
/** 401: no API key was sent. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** 402: project locked, plan lacks the feature, or a plan limit was reached. */
export class PaymentRequiredError extends ApiError {
  override name = 'PaymentRequiredError';
}
/** 403: the API key is invalid, unknown or expired (bot check: also missing). */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
/** 404: the resource does not exist. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 409: an idempotency key was reused with a different request body. */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** 410: the resource is gone. */
export class GoneError extends ApiError {
  override name = 'GoneError';
}
/** 422: the server rejected the input; `body.errors` lists each failing path. */
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
}
/** 423: the resource is not released yet. */
export class LockedError extends ApiError {
  override name = 'LockedError';
}
/** 429: too many requests (bot check: fetch count exceeded). */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
/** 5xx: the server failed. */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}

const BY_STATUS: Record<number, new (init: ApiErrorInit, message?: string) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: UnprocessableEntityError,
  423: LockedError,
  429: RateLimitError,
};

/** Picks the subclass for a status; the single factory used by the client. */
export function createApiError(init: ApiErrorInit): ApiError {
  const Ctor = BY_STATUS[init.status] ?? (init.status >= 500 ? InternalServerError : ApiError);
  return new Ctor(init);
}

/** Type guard for errors that carry an HTTP status. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** A state file or output cannot be used to resume. `code` is `bad_state`, `resume_failed` or the caller's choice. */
export class CheckpointError extends SvcError {
  override name = 'CheckpointError';
}

/** The server could not be reached, or the connection broke before a full response arrived. */
export class ConnectionError extends SvcError {
  override name = 'ConnectionError';
  /**
   * false when the failure happened before any byte of the request was written (connection
   * refused, DNS failure, connect timeout): the server cannot have acted on it, so even a
   * non-idempotent call may be retried.
   */
  readonly requestSent: boolean;

  constructor(message: string, requestSent: boolean, options?: { cause?: unknown }) {
    super(message, 'connection', options);
    this.requestSent = requestSent;
  }
}

/** One rule broken by a request, found before anything was sent. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `customerMetadata.Key` or `items.3.rawValue`. */
  path: string;
  message: string;
}

/** The request broke a documented rule; nothing was sent. `issues` lists every problem. */
export class LocalValidationError extends SvcError {
  override name = 'LocalValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], what = 'request') {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(
      first
        ? `Invalid ${what}: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`
        : `Invalid ${what}`,
      'local_validation',
    );
    this.issues = issues;
  }
}

/** A success response that is not what the API promises: not JSON, invalid JSON, or not UTF-8. Not retried. */
export class MalformedResponseError extends SvcError {
  override name = 'MalformedResponseError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'bad_response', options);
  }
}

/**
 * An output, state or input path cannot be used as given, found before any byte was written: two
 * of them are the same file, an output exists and is not this run's own (pass `force`), it is a
 * directory, or it is a symbolic link to a file. Code `config` (the CLI exits 2).
 */
export class OutputPathError extends SvcError {
  override name = 'OutputPathError';

  constructor(message: string) {
    super(message, 'config');
  }
}

/**
 * The server's paging cannot be trusted: a cursor it already returned, too many empty pages in a
 * row that still carry a cursor, or more events than its own `totalElements`. Paging stopped
 * before the page that broke the rule was handed on; not retried.
 */
export class PagingError extends SvcError {
  override name = 'PagingError';

  constructor(message: string, code: 'repeated_cursor' | 'endless_paging' | 'count_exceeded') {
    super(message, code);
  }
}

/**
 * A response body passed its byte cap (`maxResponseBytes` of the client, after decompression).
 * The body was not read further and the connection was dropped; the call is not retried.
 */
export class ResponseTooLargeError extends SvcError {
  override name = 'ResponseTooLargeError';
  /** The cap that was passed, in bytes. */
  readonly limitBytes: number;
  /** HTTP status of the oversized response. */
  readonly status: number | undefined;

  constructor(message: string, limitBytes: number, status?: number, options?: { cause?: unknown }) {
    super(message, 'response_too_large', options);
    this.limitBytes = limitBytes;
    this.status = status;
  }
}

/**
 * What ran out of time: `answer`, no answer started within `timeoutMs` (connect and response
 * headers); `body`, the body fell silent for `timeoutMs` between two chunks; `deadline`, the
 * call's total `deadlineMs` passed.
 */
export type TimeoutPhase = 'answer' | 'body' | 'deadline';

/**
 * A call ran out of time: an attempt heard nothing for `timeoutMs` (no answer, or a body that
 * stopped arriving), or the call passed its total `deadlineMs`. The message says which and how
 * many attempts were made.
 */
export class TimeoutError extends SvcError {
  override name = 'TimeoutError';
  /** The limit that ran out, ms: the silence allowed (`timeoutMs`) or the deadline (`deadlineMs`). */
  readonly timeoutMs: number;
  /** What ran out; undefined on an error made without one. */
  readonly phase: TimeoutPhase | undefined;
  /** Attempts made before giving up; undefined on an error made without the count. */
  readonly attempts: number | undefined;

  constructor(
    message: string,
    timeoutMs: number,
    options?: { cause?: unknown; phase?: TimeoutPhase; attempts?: number },
  ) {
    super(message, 'timeout', options);
    this.timeoutMs = timeoutMs;
    this.phase = options?.phase;
    this.attempts = options?.attempts;
  }
}

/** Why a verification token could not be decoded. */
export type TokenDecodeReason =
  | 'EMPTY'
  | 'TOO_LONG'
  | 'NOT_BASE64'
  | 'NOT_JSON'
  | 'NOT_OBJECT'
  | 'MISSING_ID'
  | 'BAD_ID';

/** A verification token is not Base64 JSON with a valid `verificationId`. Nothing was sent. */
export class TokenDecodeError extends SvcError {
  override name = 'TokenDecodeError';
  readonly reason: TokenDecodeReason;

  constructor(reason: TokenDecodeReason, message: string) {
    super(message, `token_${reason.toLowerCase()}`);
    this.reason = reason;
  }
}

/**
 * The request could not be made for a local reason, not a network failure: the runtime refused
 * it (Deno without `--allow-net`), the `fetch` implementation rejected it (an invalid header, a
 * `fetch` called on the wrong object), or a transport threw something that is not a
 * {@link ConnectionError}. The service was not reached, so this is never taken for
 * an outage (no retry, no `failOpen`). The original error is the `cause`.
 */
export class TransportError extends SvcError {
  override name = 'TransportError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'transport', options);
  }
}
