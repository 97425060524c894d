// The root entry `svc-sdk`: what a library user calls or catches: the clients, their options and
// results, the errors and their guards, the bot-check `verify`, the pre-check, the webhook payload
// parser and `buildOpenApiDocument`. Each name is exported once, from its own module. Jobs that
// need Node (batch files, archives, listeners, transports) are `svc-sdk/node`; the
// bot-check helpers and their errors are `svc-sdk/botcheck`; dev fixtures are `svc-sdk/testing`.
// What only the CLI, the reference server or the tests need is imported from its own module.

export {
  AuditClient,
  type AuditEventIterable,
  type AuditEventsParams,
  type AuditReadOptions,
} from './audit/client.js';
export type { AuditEventsQuery, ListEventsParams } from './audit/query.js';
export type {
  AnonymousActor,
  ApiKeyActor,
  AuditActor,
  AuditAutomation,
  AuditChange,
  AuditEvent,
  AuditEventPage,
  AuditOrigin,
  AuditResource,
  AutomationActor,
  SystemActor,
  UserActor,
} from './audit/schemas.js';
export { isActorType } from './audit/schemas.js';
export type { TailOptions } from './audit/tail.js';
export type {
  BindableResult,
  BindingOptions,
  BotCheckApi,
  BotCheckClients,
  BotCheckPipeline,
  Decision,
  EvaluableResult,
  Evaluation,
  EvaluationPolicy,
  EvaluationReason,
  EvaluationReasonCode,
  FailoverSetting,
  GetAssessmentOptions,
  GetResultOptions,
  LegacyAssessmentResult,
  SvcBotCheckClients,
  VerificationToken,
  VerifyOptions,
  VerifyOutcome,
  VerifyWithClientOptions,
  WaitWhileNotFinished,
} from './botcheck/public.js';
export type {
  LegacyAssessment,
  VerificationResult,
  VerificationTokenPayload,
} from './botcheck/schemas.js';
export { verify } from './botcheck/verify.js';
export { SvcClient } from './client.js';
export type { SvcClientOptions } from './client-options.js';
export type { KeyObjectLike, ReadableLike, WritableLike } from './core/node-shapes.js';
export type { ProblemDetails } from './core/problem-schema.js';
export { type PaymentRequiredCause, paymentRequiredCauseOf } from './core/problem-types.js';
export type { ProxyOption, ProxySettings } from './core/proxy-rules.js';
export * from './core/public.js';
export {
  type ApiDiagnosis,
  type DiagnoseOptions,
  type Diagnosis,
  diagnose,
  type KeyVerdict,
} from './doctor.js';
export { buildOpenApiDocument } from './openapi/document.js';
export { BatchStoppedError } from './tax/batch/batch-stopped-error.js';
export type { BatchRowResult, BatchRowStatus, RowReject, RunBatchOptions } from './tax/batch/types.js';
export {
  type CompletedValidation,
  type PendingValidationOutcome,
  type ScheduleCreateParams,
  type ScheduleDeleted,
  TaxClient,
  type ValidateOptions,
  type ValidateOutcome,
  type ValidateParams,
} from './tax/client.js';
export type { CompletionWatch, WaitForOptions } from './tax/completion-watch.js';
export {
  normalizeTaxId,
  type PrecheckCode,
  type PrecheckResult,
  precheck,
  SUPPORTED_COUNTRIES,
} from './tax/precheck/index.js';
export type { PrecheckMode } from './tax/precheck-mode.js';
export type { BatchRequest, ScheduleRequest, ValidationRequest } from './tax/request-schemas.js';
export type {
  BatchAccepted,
  BatchItemAccepted,
  PendingValidation,
  ScheduleCreated,
  ValidationResult,
} from './tax/response-schemas.js';
export type { ManualReviewRequiredEvent, ValidationCompletedEvent } from './tax/webhooks/event-schemas.js';
export {
  parseWebhookEvent,
  type TaxWebhookEvent,
  type UnknownWebhookEvent,
  WebhookPayloadError,
} from './tax/webhooks/parse-event.js';
export { VERSION } from './version.js';
