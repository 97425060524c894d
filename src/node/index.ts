// The `svc-sdk/node` entry: the jobs that need Node (files, sockets, listeners, undici), as
// functions taking a client or its options: the audit archive's functions (search among them,
// with its query language and the ECS/OCSF mappings, which are Web-safe but live here beside the
// search and export that write them), the webhook listener,
// forwarder and registration, completion watches, the Node transports, and the errors
// only these jobs raise. The clients and the errors every call can raise are `svc-sdk`.

export {
  ECS_VERSION,
  type EcsDocument,
  type NormaliseOptions,
  toEcs,
} from '../audit/normalise/ecs.js';
export { AUDIT_EVENT_FORMATS, type AuditEventFormat, formatEvent } from '../audit/normalise/format.js';
export {
  OCSF_CLASSES,
  OCSF_VERSION,
  type OcsfEvent,
  type OcsfUser,
  toOcsf,
} from '../audit/normalise/ocsf.js';
export { actorsReport } from '../audit/reports/actors.js';
export { apiKeysReport } from '../audit/reports/api-keys.js';
export { changesReport } from '../audit/reports/changes.js';
export { type PageFooter, reportPage } from '../audit/reports/html.js';
export {
  type AuditReport,
  buildReport,
  type ReportBuilder,
  type ReportCell,
} from '../audit/reports/report.js';
export { signInsReport } from '../audit/reports/sign-ins.js';
export { timelineReport } from '../audit/reports/timeline.js';
export { matchesAuditQuery } from '../audit/search/match.js';
export {
  type AuditQualifier,
  type AuditQuery,
  type AuditQueryTerm,
  parseAuditQuery,
  type TextTest,
  type TimeSpan,
} from '../audit/search/query.js';
export { CheckpointError } from '../core/errors/error-classes.js';
export type { CompletionWatchOptions } from '../tax/completion-watch.js';
export {
  type RegisterWebhookEndpointOptions,
  registerWebhookEndpoint,
  unregisterWebhookEndpoint,
  WebhookRegistrationError,
} from '../tax/webhooks/register-endpoint.js';
export type {
  CopiedObject,
  CopyArchiveOptions,
  CopyArchiveResult,
  LeftOutObject,
} from './audit-archive/copy.js';
export {
  type ArchiveGaps,
  acknowledgeAuditGap,
  copyAuditArchive,
  listAuditGaps,
  verifyAuditArchive,
} from './audit-archive/functions.js';
export type { ArchiveGap, GapCause } from './audit-archive/gaps.js';
export type { Manifest, ManifestFile } from './audit-archive/manifest.js';
export type { ArchiveHole } from './audit-archive/state.js';
export type {
  ArchiveProblem,
  ArchiveProblemKind,
  ArchiveRunCoverage,
  VerifyArchiveOptions,
  VerifyArchiveResult,
} from './audit-archive/verify-result.js';
export type { ExportOptions, ExportProgress, ExportResult } from './audit-export/export.js';
export { exportAuditEvents } from './audit-export/job.js';
export type { ExportedEvent, ExportHeld, ExportSink } from './audit-export/sink.js';
export {
  type AuditReceiver,
  type AuditReceiverOptions,
  DEFAULT_RECEIVE_MAX_BODY_BYTES,
  type PushReport,
  RECEIVE_HEALTH_PATH,
  type ReceiverHealth,
  startAuditReceiver,
} from './audit-receive/receive.js';
export {
  type ArchiveMatch,
  type ArchiveReadFooter,
  type ArchiveSearch,
  type ArchiveSearchOptions,
  searchAuditArchive,
} from './audit-search/job.js';
export {
  type ShipAuditOptions,
  type ShipCounts,
  type ShipCredentials,
  type ShipKind,
  type ShipProgress,
  type ShipReceipt,
  shipAuditArchive,
} from './audit-ship/job.js';
export { DEFAULT_SHIP_INDEX, SHIP_KINDS } from './audit-ship/options.js';
export type { ArchiveStoreOptions, RetainMode, S3StoreSettings } from './audit-store/s3-settings.js';
export { syncAuditArchive } from './audit-sync/job.js';
export type { SyncOptions, SyncResult } from './audit-sync/options.js';
export {
  type AuditProject,
  type ProjectOutcome,
  type ProjectSyncClient,
  type ProjectSyncResult,
  type SyncProjectsOptions,
  type SyncProjectsSummary,
  syncAuditProjects,
} from './audit-sync/projects.js';
export {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from './batch-file/errors.js';
export { runBatchFile } from './batch-file/job.js';
export type {
  BatchFileEvent,
  BatchFileInputOptions,
  BatchFileOptions,
  BatchFileOutputOptions,
  BatchFileResult,
  BatchFileResumeOptions,
  BatchFileSendOptions,
  BatchFileWaitOptions,
} from './batch-file/options.js';
export type { BatchFileClient } from './batch-file/phases/context.js';
export type { SyncPolicy } from './fs/checkpoint.js';
export { createDefaultTransport } from './transport/default.js';
export { createNodeHttpTransport, type NodeHttpTransportOptions } from './transport/node-http.js';
export { createUndiciTransport, type UndiciTransportOptions } from './transport/undici.js';
export { watchCompletions } from './webhooks/completion-watch.js';
export {
  createWebhookForwarder,
  WebhookForwardError,
  type WebhookForwarder,
  type WebhookForwarderOptions,
} from './webhooks/forwarder.js';
export {
  listenForWebhooks,
  type WebhookDelivery,
  type WebhookListener,
  type WebhookListenerOptions,
} from './webhooks/listen.js';
export { WebhookRejection } from './webhooks/rejection.js';
