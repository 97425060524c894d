// The root entry `svc-sdk`: what a library user calls or catches (clients, their options and
// results, errors, the bot check, the pre-check, token and webhook helpers, transports, the audit
// archive). Each name is exported once, from its own module; the names shared with
// `svc-sdk/botcheck` come from one list each (botcheck/public.ts, core/public.ts).
// What only the CLI, the reference server or the tests need (wire schemas as values, retry
// internals, choice lists, redaction) they import from its own module: it is not public.
export type {
  CopiedObject,
  CopyArchiveOptions,
  CopyArchiveResult,
  LeftOutObject,
} from './audit/archive/copy.js';
export type { ArchiveGap, GapCause } from './audit/archive/gaps.js';
export type {
  ArchiveProblem,
  ArchiveProblemKind,
  ArchiveRunCoverage,
  VerifyArchiveOptions,
  VerifyArchiveResult,
} from './audit/archive/verify-result.js';
export {
  type ArchiveGaps,
  acknowledgeAuditGap,
  copyAuditArchive,
  listAuditGaps,
  verifyAuditArchive,
} from './audit/archive-functions.js';
export {
  AuditClient,
  type AuditEventIterable,
  type AuditEventsParams,
  type AuditReadOptions,
} from './audit/client.js';
export type { ExportOptions, ExportProgress, ExportResult } from './audit/export/export.js';
export { isActorType } from './audit/schemas.js';
export type { ArchiveStoreOptions, RetainMode, S3StoreSettings } from './audit/store/s3-settings.js';
export type { SyncOptions, SyncResult } from './audit/sync/options.js';
export {
  type AuditProject,
  type ProjectOutcome,
  type ProjectSyncClient,
  type ProjectSyncResult,
  type SyncProjectsOptions,
  type SyncProjectsSummary,
  syncAuditProjects,
} from './audit/sync-projects.js';
export type { TailOptions } from './audit/tail.js';
export {
  DEV_OUTCOMES,
  type DevOutcome,
  DUMMY_TOKENS,
  DUMMY_VERIFICATION_IDS,
  isDevOutcome,
} from './botcheck/dev-outcomes.js';
export {
  type CreateDevVerificationOptions,
  createDevVerification,
  type DevServerClient,
  DevServerRequiredError,
} from './botcheck/dev-verification.js';
export * from './botcheck/public.js';
export { SvcClient } from './client.js';
export type { SvcClientOptions } from './client-options.js';
export { CheckpointError } from './core/errors/error-classes.js';
export type { KeyObjectLike, ReadableLike, WritableLike } from './core/node-shapes.js';
export { type PaymentRequiredCause, paymentRequiredCauseOf } from './core/problem-types.js';
export type { ProxyOption, ProxySettings } from './core/proxy-rules.js';
export * from './core/public.js';
export { createDefaultTransport } from './core/transport/default.js';
export { createNodeHttpTransport, type NodeHttpTransportOptions } from './core/transport/node-http.js';
export { createUndiciTransport, type UndiciTransportOptions } from './core/transport/undici.js';
export {
  type ApiDiagnosis,
  type DiagnoseOptions,
  type Diagnosis,
  diagnose,
  type KeyVerdict,
} from './doctor.js';
export type { SyncPolicy } from './node/checkpoint.js';
export { buildOpenApiDocument } from './openapi/document.js';
export type * from './public-types.js';
export { BatchStoppedError } from './tax/batch/batch-stopped-error.js';
export type { BatchRowResult, BatchRowStatus, RowReject, RunBatchOptions } from './tax/batch/types.js';
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
  ValidateOptions,
  ValidateOutcome,
  ValidateParams,
} from './tax/client.js';
export {
  type CompletionWatch,
  type CompletionWatchOptions,
  type WaitForOptions,
  watchCompletions,
} from './tax/completion-watch.js';
export {
  normalizeTaxId,
  type PrecheckCode,
  type PrecheckResult,
  precheck,
  SUPPORTED_COUNTRIES,
} from './tax/precheck/index.js';
export type { PrecheckMode } from './tax/precheck-mode.js';
export {
  createWebhookForwarder,
  WebhookForwardError,
  type WebhookForwarder,
  type WebhookForwarderOptions,
} from './tax/webhooks/forwarder.js';
export {
  listenForWebhooks,
  type WebhookDelivery,
  type WebhookListener,
  type WebhookListenerOptions,
} from './tax/webhooks/listen.js';
export {
  parseWebhookEvent,
  type TaxWebhookEvent,
  type UnknownWebhookEvent,
  WebhookPayloadError,
} from './tax/webhooks/parse-event.js';
export {
  type RegisterWebhookEndpointOptions,
  registerWebhookEndpoint,
  unregisterWebhookEndpoint,
  WebhookRegistrationError,
} from './tax/webhooks/register-endpoint.js';
export { WebhookRejection } from './tax/webhooks/rejection.js';
export { VERSION } from './version.js';
