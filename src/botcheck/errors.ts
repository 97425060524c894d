import {
  ApiError,
  type ApiErrorInit,
  BadRequestError,
  GoneError,
  InternalServerError,
  LockedError,
  NotFoundError,
  PermissionDeniedError,
  statusText,
  UnprocessableEntityError,
} from '../core/errors/error-classes.js';

/** Which bot-check API answered. */
export type BotCheckApi = 'current' | 'legacy';

function message(init: ApiErrorInit, meaning: string): string {
  const base = `${init.status} ${statusText(init.status)}: ${init.method} ${init.path}`;
  return `${base}: ${meaning}${init.detail ? ` (${init.detail})` : ''}`;
}

/** 404: no verification with this id exists for this key (legacy: it may have been retrieved and deleted). */
export class VerificationNotFoundError extends NotFoundError {
  override name = 'VerificationNotFoundError';
  constructor(init: ApiErrorInit) {
    super(
      init,
      message(init, 'verification not found; check the verificationId and the API key of its project'),
    );
  }
}

/** 410 on the current API: the validity period passed; the captcha must be solved again. */
export class VerificationResultExpiredError extends GoneError {
  override name = 'VerificationResultExpiredError';
  constructor(init: ApiErrorInit) {
    super(init, message(init, 'verification result expired; the captcha must be solved again'));
  }
}

/** 423: the verification has not finished; its result is not released yet. Retrying later may succeed. */
export class VerificationNotFinishedError extends LockedError {
  override name = 'VerificationNotFinishedError';
  constructor(init: ApiErrorInit) {
    super(init, message(init, 'verification not finished; the result is not released yet, retry shortly'));
  }
}

/**
 * The result was already fetched as often as allowed (1 by default): 429 on the current API, 410
 * on the legacy API (which does not tell "already retrieved" from "expired"). The captcha must be
 * solved again. Extends {@link ApiError} directly, since the status differs between the two APIs.
 */
export class FetchLimitReachedError extends ApiError {
  override name = 'FetchLimitReachedError';
  readonly api: BotCheckApi;
  constructor(init: ApiErrorInit, api: BotCheckApi) {
    super(
      init,
      message(
        init,
        api === 'legacy'
          ? 'fetch limit reached: result already retrieved or expired; the captcha must be solved again'
          : 'fetch limit reached: result already retrieved; the captcha must be solved again',
      ),
    );
    this.api = api;
  }
}

function initOf(error: ApiError): ApiErrorInit {
  return {
    status: error.status,
    method: error.method,
    path: error.path,
    requestId: error.requestId,
    body: error.body,
    detail: error.detail,
    retryAfterSeconds: error.retryAfterSeconds,
  };
}

/**
 * Gives an error of a bot-check call its domain class and a message that says what to do, for
 * the statuses each API documents. Called once on the error the transport raised; anything else
 * passes through unchanged.
 */
export function toBotCheckError(error: unknown, api: BotCheckApi): unknown {
  if (!(error instanceof ApiError)) return error;
  const init = initOf(error);
  switch (error.status) {
    case 404:
      return new VerificationNotFoundError(init);
    case 410:
      return api === 'legacy'
        ? new FetchLimitReachedError(init, api)
        : new VerificationResultExpiredError(init);
    case 423:
      return new VerificationNotFinishedError(init);
    case 429:
      return api === 'current' ? new FetchLimitReachedError(init, api) : error;
    case 400:
      if (api === 'current') return error;
      return new BadRequestError(
        init,
        message(init, 'the verificationId is not a UUID or the access token is malformed'),
      );
    case 403:
      return new PermissionDeniedError(
        init,
        message(
          init,
          api === 'legacy'
            ? 'API key missing or invalid; send the API key (or secret key) of the captcha'
            : 'API key missing or invalid; use a project API key',
        ),
      );
    case 422:
      if (api === 'current') return error;
      return new UnprocessableEntityError(
        init,
        message(init, 'the captcha mode of the widget differs from the mode in the captcha settings'),
      );
    default:
      if (error.status >= 500) {
        return new InternalServerError(init, message(init, 'the bot-check service failed; try again later'));
      }
      return error;
  }
}
