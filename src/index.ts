export type { ArchiveGap, GapCause } from './audit/archive-gaps.js';
export type {
  ArchiveProblem,
  ArchiveProblemKind,
  ArchiveRunCoverage,
  VerifyArchiveOptions,
  VerifyArchiveResult,
} from './audit/archive-verify.js';
export { verifyAuditArchive } from './audit/archive-verify-entry.js';
export { AuditClient, type AuditEventIterable, type AuditEventsParams } from './audit/client.js';
export type { ExportOptions, ExportProgress, ExportResult } from './audit/export.js';
export type { Manifest, ManifestFile } from './audit/manifest.js';
export {
  AuditEventsQuery,
  AuditTimestamp,
  DEFAULT_PAGE_SIZE,
  ListEventsParams,
  MAX_PAGE_SIZE,
} from './audit/query.js';
export {
  ACTOR_TYPES,
  AnonymousActor,
  ApiKeyActor,
  AUTOMATION_KINDS,
  AuditActor,
  AuditAutomation,
  AuditChange,
  AuditEvent,
  AuditEventPage,
  AuditOrigin,
  AuditResource,
  AutomationActor,
  isActorType,
  SystemActor,
  UserActor,
} from './audit/schemas.js';
export { type ArchiveGaps, acknowledgeAuditGap, listAuditGaps } from './audit/sync-gaps.js';
export type { SyncOptions, SyncResult } from './audit/sync-options.js';
export {
  type AuditProject,
  DEFAULT_PROJECT_PARALLEL,
  type ProjectOutcome,
  type ProjectSyncResult,
  type SyncProjectsOptions,
  type SyncProjectsSummary,
  syncAuditProjects,
} from './audit/sync-projects.js';
export type { ArchiveHole } from './audit/sync-state.js';
export type { TailOptions } from './audit/tail.js';
export {
  VERIFY_CACHE_MAX_ENTRIES,
  VERIFY_CACHE_MAX_UNANSWERED,
  VERIFY_CACHE_TTL_MS,
} from './botcheck/answer-cache.js';
export {
  type BindableResult,
  type BindingOptions,
  bindingFailures,
  validateBinding,
  withBinding,
} from './botcheck/binding.js';
export { BotCheckClient } from './botcheck/current-client.js';
export {
  DEV_OUTCOME_DESCRIPTIONS,
  DEV_OUTCOMES,
  type DevOutcome,
  DUMMY_TOKENS,
  DUMMY_VERIFICATION_IDS,
  isDevOutcome,
} from './botcheck/dev-outcomes.js';
export {
  type CreateDevVerificationOptions,
  createDevVerification,
  DevServerRequiredError,
  DevVerification,
} from './botcheck/dev-verification.js';
export {
  type BotCheckApi,
  FetchLimitReachedError,
  VerificationNotFinishedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from './botcheck/errors.js';
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
} from './botcheck/evaluate.js';
export { extractToken, TOKEN_FIELD } from './botcheck/extract-token.js';
export {
  BOT_CHECK_TIMEOUT_MS,
  type GetResultOptions,
  type WaitWhileNotFinished,
} from './botcheck/fetch-result.js';
export {
  type GetAssessmentOptions,
  type LegacyAssessmentResult,
  LegacyBotCheckClient,
} from './botcheck/legacy-client.js';
export { parseLegacyTimestamp } from './botcheck/legacy-time.js';
export type { VerifyOptions, VerifyOutcome } from './botcheck/run-verify.js';
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
} from './botcheck/schemas.js';
export { TEST_VERIFICATION_IDS } from './botcheck/test-ids.js';
export {
  decodeVerificationToken,
  encodeVerificationToken,
  MAX_TOKEN_LENGTH,
  resolveVerificationId,
  type VerificationToken,
} from './botcheck/token.js';
export { type BotCheckClients, type VerifyWithClientOptions, verify } from './botcheck/verify.js';
export { SvcClient } from './client.js';
export type { SvcClientOptions } from './client-options.js';
export type { SyncPolicy } from './core/checkpoint.js';
export { CheckpointError } from './core/errors/checkpoint-error.js';
export * from './core/errors/index.js';
export type { RequestOptions } from './core/http.js';
export type { Logger, RequestEvent, ResponseEvent } from './core/logger.js';
export { ProblemDetails } from './core/problem-schema.js';
export {
  PAYMENT_REQUIRED_CAUSES,
  type PaymentRequiredCause,
  paymentRequiredCauseOf,
  paymentRequiredType,
} from './core/problem-types.js';
export { maskKey, redact, redactHeaders } from './core/redact.js';
export { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from './core/response-limits.js';
export {
  backoffDelay,
  parseRetryAfter,
  RETRY_IDEMPOTENT_DELETE,
  RETRY_SAFE,
  RETRY_UNSENT_ONLY,
  type RetryPolicy,
} from './core/retry.js';
export { createDefaultTransport } from './core/transport/default.js';
export { createFetchTransport } from './core/transport/fetch.js';
export { createNodeHttpTransport, type NodeHttpTransportOptions } from './core/transport/node-http.js';
export type { FetchLike, Transport, TransportRequest, TransportResponse } from './core/transport/types.js';
export { createUndiciTransport, type UndiciTransportOptions } from './core/transport/undici.js';
export {
  type ApiDiagnosis,
  type DiagnoseOptions,
  type Diagnosis,
  diagnose,
  type KeyVerdict,
} from './doctor.js';
export { buildOpenApiDocument } from './openapi/document.js';
export { BatchStoppedError } from './tax/batch/batch-stopped-error.js';
export {
  type BatchRowResult,
  type BatchRowStatus,
  type RowReject,
  type RunBatchOptions,
  rowReject,
} from './tax/batch/types.js';
export {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from './tax/batch-file/errors.js';
export type {
  BatchFileEvent,
  BatchFileOptions,
  BatchFileResult,
  BatchFileWaitOptions,
} from './tax/batch-file/options.js';
export type {
  CompletedValidation,
  PendingValidationOutcome,
  ScheduleCreateParams,
  ScheduleDeleted,
  TaxClient,
  ValidateOptions,
  ValidateOutcome,
  ValidateParams,
} from './tax/client.js';
export {
  type CompletionWatch,
  type CompletionWatchOptions,
  DEFAULT_WAIT_TIMEOUT_MS,
  type WaitForOptions,
  watchCompletions,
} from './tax/completion-watch.js';
export { FREQUENCIES, LIMITS, OUTCOMES, PROVIDERS } from './tax/enums.js';
export {
  MAX_NORMALIZED_LENGTH,
  normalizeTaxId,
  type PrecheckCode,
  type PrecheckResult,
  precheck,
  registryFor,
  SUPPORTED_COUNTRIES,
} from './tax/precheck/index.js';
export { PRECHECK_MODES, type PrecheckMode } from './tax/precheck-mode.js';
export {
  type RegisterWebhookEndpointOptions,
  registerWebhookEndpoint,
  unregisterWebhookEndpoint,
  WebhookRegistrationError,
} from './tax/register-webhook-endpoint.js';
export {
  Address,
  AttachSchedule,
  BatchRequest,
  CustomerMetadata,
  ScheduleRequest,
  ValidationRequest,
} from './tax/request-schemas.js';
export {
  BatchAccepted,
  BatchItemAccepted,
  MatchResult,
  PendingValidation,
  ScheduleCreated,
  ValidationResult,
} from './tax/response-schemas.js';
export {
  createWebhookForwarder,
  WebhookForwardError,
  type WebhookForwarder,
  type WebhookForwarderOptions,
} from './tax/webhook-forwarder.js';
export {
  listenForWebhooks,
  type WebhookDelivery,
  type WebhookListener,
  type WebhookListenerOptions,
  WebhookRejection,
} from './tax/webhook-listener.js';
export {
  ManualReviewRequiredEvent,
  ValidationCompletedEvent,
  WEBHOOK_EVENT_TYPES,
} from './tax/webhook-schemas.js';
export {
  parseWebhookEvent,
  type TaxWebhookEvent,
  type UnknownWebhookEvent,
  WebhookPayloadError,
} from './tax/webhooks.js';
export { VERSION } from './version.js';
