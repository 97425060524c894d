// The public names of types whose module also has a value of the same name (a wire schema, or a
// class users get but never construct), as type aliases: tsup's declaration bundler
// (rollup-plugin-dts) tracks names, not meanings, so `export type { X } from` a module where X is
// also a value would declare X as a value in the entry's .d.ts, which the JavaScript does not
// export (`X()` would type-check and fail at run time). An alias is a type and nothing else; the
// classes' instance types are interfaces, so that the reference lists (and links to) their members.

import type { ManifestFile as ManifestFileType, Manifest as ManifestType } from './audit/archive/manifest.js';
import type { ArchiveHole as ArchiveHoleType } from './audit/archive/state.js';
import type {
  AuditEventsQuery as AuditEventsQueryType,
  ListEventsParams as ListEventsParamsType,
} from './audit/query.js';
import type {
  AnonymousActor as AnonymousActorType,
  ApiKeyActor as ApiKeyActorType,
  AuditActor as AuditActorType,
  AuditAutomation as AuditAutomationType,
  AuditChange as AuditChangeType,
  AuditEventPage as AuditEventPageType,
  AuditEvent as AuditEventType,
  AuditOrigin as AuditOriginType,
  AuditResource as AuditResourceType,
  AutomationActor as AutomationActorType,
  SystemActor as SystemActorType,
  UserActor as UserActorType,
} from './audit/schemas.js';
import type { DevVerification as DevVerificationType } from './botcheck/dev-verification.js';
import type { ProblemDetails as ProblemDetailsType } from './core/problem-schema.js';
import type {
  BatchRequest as BatchRequestType,
  ScheduleRequest as ScheduleRequestType,
  ValidationRequest as ValidationRequestType,
} from './tax/request-schemas.js';
import type {
  BatchAccepted as BatchAcceptedType,
  BatchItemAccepted as BatchItemAcceptedType,
  PendingValidation as PendingValidationType,
  ScheduleCreated as ScheduleCreatedType,
  ValidationResult as ValidationResultType,
} from './tax/response-schemas.js';
import type {
  ManualReviewRequiredEvent as ManualReviewRequiredEventType,
  ValidationCompletedEvent as ValidationCompletedEventType,
} from './tax/webhooks/event-schemas.js';

/** A caller not signed in (failed sign-in, password reset by e-mail link). */
export type AnonymousActor = AnonymousActorType;

/** A request authenticated with an API key, identified by `apiKeyId`. */
export type ApiKeyActor = ApiKeyActorType;

/** A span the archive reported as not whole (retention gap or events that came too late). */
export type ArchiveHole = ArchiveHoleType;

/**
 * Who acted. Narrow with {@link isActorType}; an unknown type or a known type without its
 * identifying field parses as `OtherActor` instead of failing.
 */
export type AuditActor = AuditActorType;

/** The automation behind an AUTOMATION actor: `kind` SCHEDULER, RUNNER or LISTENER, `name` the job. */
export type AuditAutomation = AuditAutomationType;

/** One change of the subject. Secret values are never recorded: such a change has `isRedacted: true`. */
export type AuditChange = AuditChangeType;

/**
 * An audit event (element of `content`). Lenient: unknown fields and values are kept.
 * `schemaVersion` 2 tells API keys, automations and anonymous callers apart; 1 knows USER and SYSTEM.
 */
export type AuditEvent = AuditEventType;

/** Response of `GET /platform/v1/events`: one page, newest first. */
export type AuditEventPage = AuditEventPageType;

/**
 * The query of `GET /platform/v1/events` as the API reads it, defaults applied (`pageSize` 100,
 * `page` 0). `from` and `to` stay optional: their defaults depend on the time of the request,
 * see `resolveRange`. The reference server and the OpenAPI document use this declaration.
 */
export type AuditEventsQuery = AuditEventsQueryType;

/** Where the event was recorded; `traceId` is the reference for support. */
export type AuditOrigin = AuditOriginType;

/** `{kind, id, label}`: a resource (subject or scope). `kind` names are internal, e.g. `platform.subscription` is a project. */
export type AuditResource = AuditResourceType;

/** A process of the service that runs by itself. */
export type AutomationActor = AutomationActorType;

/** 202 of `POST /validations/batch`. */
export type BatchAccepted = BatchAcceptedType;

/** One entry of the batch 202, in input order. */
export type BatchItemAccepted = BatchItemAcceptedType;

/** Body of `POST /validations/batch`. */
export type BatchRequest = BatchRequestType;

/** What a dev server answers for a new verification (`POST /__admin/verifications`). */
export interface DevVerification extends DevVerificationType {}

/** Input type of {@link ListEventsParams}: timestamps as ISO strings or `Date`s. */
export type ListEventsParams = ListEventsParamsType;

/**
 * The manifest of one sync run, written last. `range` is what the run covers (after `from`, up to
 * and including `to`; the first run includes `from`); consecutive runs' ranges meet.
 */
export type Manifest = ManifestType;

/** One data file of a run. */
export type ManifestFile = ManifestFileType;

/** Payload of `taxvalidation.validation.manual-review-required`. */
export type ManualReviewRequiredEvent = ManualReviewRequiredEventType;

/** 202 of `POST /validations`: accepted, result to follow. */
export type PendingValidation = PendingValidationType;

/** An RFC 9457 problem document, the error body of the reference server. Lenient on extra members. */
export type ProblemDetails = ProblemDetailsType;

/** 201 of `POST /schedules`. */
export type ScheduleCreated = ScheduleCreatedType;

/** Body of `POST /schedules`. */
export type ScheduleRequest = ScheduleRequestType;

/** The service itself, when no more specific actor applies. */
export type SystemActor = SystemActorType;

/** A signed-in person, identified by `userId`. */
export type UserActor = UserActorType;

/** Payload of `taxvalidation.validation.completed` and `.invalid`. */
export type ValidationCompletedEvent = ValidationCompletedEventType;

/** Input of `POST /validations` and of each batch item. Strict: unknown keys are rejected. */
export type ValidationRequest = ValidationRequestType;

/** A validation result (201 of `POST /validations`, `GET /validation-results/{id}`). Lenient. */
export type ValidationResult = ValidationResultType;
