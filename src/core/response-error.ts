import { errorDetail, parseErrorBody, problemList } from './error-body.js';
import { type ApiError, createApiError } from './errors/error-classes.js';
import { redact } from './redact.js';
import { parseRetryAfter } from './retry.js';
import type { TransportResponse } from './transport/types.js';

/**
 * The {@link ApiError} of a response that is no success: its problem details, the redirect it
 * asked for, its `Retry-After`. Every text taken from the response is redacted with `secrets`.
 */
export function responseError(
  call: { method: string; path: string },
  response: TransportResponse,
  requestId: string | undefined,
  secrets: readonly string[],
  now: () => number,
): ApiError {
  // A server that echoes the key must not put it into an error a caller may log whole.
  const text = response.bytes ? new TextDecoder().decode(response.bytes) : response.body;
  const body = parseErrorBody(redact(text, secrets));
  const problems = response.status === 422 ? problemList(body) : undefined;
  const firstDetail = errorDetail(body);
  const rawDetail = problems ? (firstDetail ? `${firstDetail}: ${problems}` : problems) : firstDetail;
  const retryAfterMs = parseRetryAfter(response.headers['retry-after'], now);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  const detail =
    response.status >= 300 && response.status < 400
      ? `redirect to ${response.headers.location ? redact(response.headers.location, secrets) : 'another location'} not followed`
      : rawDetail;
  return createApiError({
    status: response.status,
    method: call.method,
    path: call.path,
    requestId,
    body,
    detail,
    retryAfterSeconds,
  });
}
