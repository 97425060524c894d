import { describe, expect, it } from 'vitest';
import * as botCheckApi from '../../src/botcheck/index.js';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createApiError,
  GoneError,
  InternalServerError,
  isApiError,
  isSvcError,
  LocalValidationError,
  LockedError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  SvcError,
  TimeoutError,
  TokenDecodeError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import * as publicApi from '../../src/index.js';

describe('one ApiError subclass per status, picked by a single factory', () => {
  const table: Array<[number, typeof ApiError, string]> = [
    [400, BadRequestError, '400 Bad Request'],
    [401, AuthenticationError, '401 Unauthorized'],
    [402, PaymentRequiredError, '402 Payment Required'],
    [403, PermissionDeniedError, '403 Forbidden'],
    [404, NotFoundError, '404 Not Found'],
    [409, ConflictError, '409 Conflict'],
    [410, GoneError, '410 Gone'],
    [422, UnprocessableEntityError, '422 Unprocessable Entity'],
    [423, LockedError, '423 Locked'],
    [429, RateLimitError, '429 Too Many Requests'],
    [500, InternalServerError, '500 Internal Server Error'],
    [502, InternalServerError, '502 Bad Gateway'],
    [503, InternalServerError, '503 Service Unavailable'],
    [599, InternalServerError, '599 Server Error'],
    [418, ApiError, '418 Error'],
    [302, ApiError, '302 Redirect'],
  ];
  for (const [status, type, head] of table) {
    it(`${status} → ${type.name}`, () => {
      const error = createApiError({
        status,
        method: 'GET',
        path: '/captcha/v2/verifications/abc/results',
        requestId: 'req_1',
        body: { detail: 'why' },
        detail: 'why',
      });
      expect(error.constructor).toBe(type);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toBeInstanceOf(SvcError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(type === ApiError ? 'ApiError' : type.name);
      expect(error.code).toBe(`http_${status}`);
      expect(error.requestId).toBe('req_1');
      expect(error.body).toEqual({ detail: 'why' });
      expect(error.message).toBe(`${head}: GET /captcha/v2/verifications/abc/results (why)`);
    });
  }

  it('leaves the parenthesis out when there is no detail', () => {
    const error = createApiError({ status: 403, method: 'GET', path: '/x' });
    expect(error.message).toBe('403 Forbidden: GET /x');
  });
});

describe('every error class is exported, with name and code', () => {
  it('exports the hierarchy from the package entry', () => {
    for (const name of [
      'SvcError',
      'ApiError',
      'BadRequestError',
      'AuthenticationError',
      'PaymentRequiredError',
      'PermissionDeniedError',
      'NotFoundError',
      'ConflictError',
      'GoneError',
      'UnprocessableEntityError',
      'LockedError',
      'RateLimitError',
      'InternalServerError',
      'ConnectionError',
      'TimeoutError',
      'AbortError',
      'LocalValidationError',
      'isApiError',
      'isSvcError',
    ]) {
      expect(publicApi, name).toHaveProperty(name);
    }
    // decodeVerificationToken's error is the bot-check entry's, with the helper that throws it.
    expect(botCheckApi).toHaveProperty('TokenDecodeError');
  });

  it('non-HTTP errors carry their codes', () => {
    expect(new ConnectionError('x', false)).toMatchObject({ name: 'ConnectionError', code: 'connection' });
    expect(new TimeoutError('x', 5)).toMatchObject({ name: 'TimeoutError', code: 'timeout', timeoutMs: 5 });
    expect(new AbortError()).toMatchObject({ name: 'AbortError', code: 'aborted' });
    expect(new TokenDecodeError('NOT_JSON', 'x')).toMatchObject({
      code: 'token_not_json',
      reason: 'NOT_JSON',
    });
    const local = new LocalValidationError([
      { path: 'countryCode', message: 'bad' },
      { path: 'rawValue', message: 'empty' },
    ]);
    expect(local.message).toBe('Invalid request: countryCode: bad (and 1 more)');
    expect(local.code).toBe('local_validation');
  });

  it('type guards tell them apart', () => {
    const api = createApiError({ status: 404, method: 'GET', path: '/x' });
    expect(isApiError(api)).toBe(true);
    expect(isApiError(new TimeoutError('x', 1))).toBe(false);
    expect(isSvcError(new TimeoutError('x', 1))).toBe(true);
    expect(isSvcError(new Error('x'))).toBe(false);
  });
});
