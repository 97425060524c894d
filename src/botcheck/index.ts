// The `svc-sdk/botcheck` entry: the bot check on Web APIs alone (fetch, AbortController,
// TextEncoder, atob/btoa), for Workers, edge routes, Deno, Bun and Node. Nothing re-exported here
// may load a Node built-in, undici, CSV, tax or audit code (test/botcheck/entry.test.ts checks).
export {
  type BotCheckAnswer,
  type BotCheckDecisionEvent,
  type BotCheckOutcome,
  type BotCheckRequest,
  botCheckOf,
  DEFAULT_MAX_BODY_BYTES,
  type ParsedRequest,
  type VerifyRequestOptions,
  verifyRequest,
} from '../adapters/verify-request.js';
export * from '../core/errors/index.js';
export type { RequestOptions } from '../core/http.js';
export type { Logger, RequestEvent, ResponseEvent } from '../core/logger.js';
export type { ResponseLimits } from '../core/response-limits.js';
export { createFetchTransport } from '../core/transport/fetch.js';
export type { FetchLike, Transport, TransportRequest, TransportResponse } from '../core/transport/types.js';
export {
  VERIFY_CACHE_MAX_ENTRIES,
  VERIFY_CACHE_MAX_UNANSWERED,
  VERIFY_CACHE_TTL_MS,
} from './answer-cache.js';
export {
  type BindableResult,
  type BindingOptions,
  bindingFailures,
  validateBinding,
  withBinding,
} from './binding.js';
export type { BotCheckClientOptions, BotCheckPipeline } from './client-options.js';
export { BotCheckClient } from './current-client.js';
export {
  type BotCheckApi,
  FetchLimitReachedError,
  VerificationNotFinishedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from './errors.js';
export {
  DEFAULT_POLICY,
  type Decision,
  type EvaluableResult,
  type Evaluation,
  type EvaluationPolicy,
  type EvaluationReason,
  type EvaluationReasonCode,
  evaluate,
  type FailoverSetting,
  validatePolicy,
} from './evaluate.js';
export { extractToken, TOKEN_FIELD } from './extract-token.js';
export {
  BOT_CHECK_TIMEOUT_MS,
  type GetResultOptions,
  type WaitWhileNotFinished,
} from './fetch-result.js';
export {
  type GetAssessmentOptions,
  type LegacyAssessmentResult,
  LegacyBotCheckClient,
} from './legacy-client.js';
export { parseLegacyTimestamp } from './legacy-time.js';
export type { VerifyOptions, VerifyOutcome } from './run-verify.js';
export {
  DECISION_ACTIONS,
  DECISION_TYPES,
  isVerificationId,
  LEGACY_REASONS,
  LegacyAssessment,
  normalizeLegacyReason,
  VERIFICATION_ID_PATTERN,
  VerificationResult,
  VerificationTokenPayload,
} from './schemas.js';
export { TEST_VERIFICATION_IDS } from './test-ids.js';
export {
  decodeVerificationToken,
  encodeVerificationToken,
  MAX_TOKEN_LENGTH,
  resolveVerificationId,
  type VerificationToken,
} from './token.js';
export {
  type BotCheckClients,
  type SvcBotCheckClients,
  type VerifyWithClientOptions,
  verify,
} from './verify.js';
