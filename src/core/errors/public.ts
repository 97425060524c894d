// The errors a library user catches: the one list both `svc-sdk` and `svc-sdk/botcheck` export.
// How an error is made from a response (`createApiError`, `statusText`) stays inside the package.
export { AbortError } from './abort-error.js';
export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  InternalServerError,
  isApiError,
  LockedError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './api-error.js';
export { ConnectionError } from './connection-error.js';
export { LocalValidationError, type ValidationIssue } from './local-validation-error.js';
export { MalformedResponseError } from './malformed-response-error.js';
export { OutputPathError } from './output-path-error.js';
export { PagingError } from './paging-error.js';
export { ResponseTooLargeError } from './response-too-large-error.js';
export { isSvcError, SvcError } from './svc-error.js';
export { TimeoutError } from './timeout-error.js';
export { TokenDecodeError, type TokenDecodeReason } from './token-decode-error.js';
export { TransportError } from './transport-error.js';
