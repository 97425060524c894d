// The bot-check names both `svc-sdk` and `svc-sdk/botcheck` export: the one list of them (each
// entry re-exports it with `export *`). Web APIs only, like the `svc-sdk/botcheck` entry: nothing
// here may load a Node built-in, undici, CSV, tax or audit code. What only the CLI, the reference
// server or the tests need (wire schemas, retry and parsing internals, choice lists) is imported
// from its own module, never through this list.

export { TokenDecodeError, type TokenDecodeReason } from '../core/errors/error-classes.js';
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
export type { GetResultOptions, WaitWhileNotFinished } from './fetch-result.js';
export {
  type GetAssessmentOptions,
  type LegacyAssessmentResult,
  LegacyBotCheckClient,
} from './legacy-client.js';
export type { VerifyOptions, VerifyOutcome } from './run-verify.js';
export type { LegacyAssessment, VerificationResult, VerificationTokenPayload } from './schemas.js';
export { TEST_VERIFICATION_IDS } from './test-ids.js';
export {
  decodeVerificationToken,
  encodeVerificationToken,
  resolveVerificationId,
  type VerificationToken,
} from './token.js';
export {
  type BotCheckClients,
  type SvcBotCheckClients,
  type VerifyWithClientOptions,
  verify,
} from './verify.js';
export { isVerificationId } from './vocabulary.js';
