import { SvcError } from './svc-error.js';

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
  /** Seconds from a `Retry-After` header, when present. */
  retryAfterSeconds?: number | undefined;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
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
