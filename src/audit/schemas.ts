import * as z from 'zod/mini';
import { looseObject, meta, openEnum, timestamp, wireSchema } from '../core/schema.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query.js';

/** Kinds of service process behind an AUTOMATION actor. */
export const AUTOMATION_KINDS = ['SCHEDULER', 'RUNNER', 'LISTENER'] as const;
/** Shown value of `changes.operation`; the full list is not documented. */
export const CHANGE_OPERATIONS = ['SET'] as const;

/** `{kind, id, label}`: a resource (subject or scope). `kind` names are internal, e.g. `platform.subscription` is a project. */
export const AuditResourceSchema = wireSchema(() =>
  meta(
    looseObject({
      kind: meta(z.string(), {
        description:
          'Internal kind name, e.g. `platform.subscription` (a project) or `platform.organization` (an agency)',
      }),
      id: meta(z.string(), { description: 'Id of the resource' }),
      /** Name of the resource at the time of the event. */
      label: meta(z.optional(z.nullable(z.string())), {
        description: 'Name of the resource at the time of the event',
      }),
    }),
    { description: 'A resource: {kind, id, label}' },
  ),
);
/** `{kind, id, label}`: a resource (subject or scope). `kind` names are internal, e.g. `platform.subscription` is a project. */
export type AuditResource = z.infer<ReturnType<typeof AuditResourceSchema>>;

/** An optional string that may be null: `string | null | undefined`. */
const nullableString = (description: string) => meta(z.optional(z.nullable(z.string())), { description });

/** Where the event was recorded; `traceId` is the reference for support. */
export const AuditOriginSchema = wireSchema(() =>
  meta(
    looseObject({
      namespace: nullableString('Area of the service, e.g. CAPTCHA; the full list is not documented'),
      source: nullableString('Component that recorded the event, e.g. REST_CONTROLLER'),
      applicationName: nullableString('Application that recorded the event'),
      traceId: nullableString('The reference to quote to support'),
      transactionId: nullableString('Id of the transaction that caused the event'),
    }),
    { description: 'Where the event was recorded' },
  ),
);
/** Where the event was recorded; `traceId` is the reference for support. */
export type AuditOrigin = z.infer<ReturnType<typeof AuditOriginSchema>>;

/** The automation behind an AUTOMATION actor: `kind` SCHEDULER, RUNNER or LISTENER, `name` the job. */
export const AuditAutomationSchema = wireSchema(() =>
  meta(
    looseObject({
      kind: meta(openEnum(AUTOMATION_KINDS), {
        description:
          'SCHEDULER (scheduled job), RUNNER (task at service start) or LISTENER (reaction to another event)',
      }),
      name: meta(z.string(), { description: 'Name of the job' }),
    }),
    { description: 'The process behind an AUTOMATION actor' },
  ),
);
/** The automation behind an AUTOMATION actor: `kind` SCHEDULER, RUNNER or LISTENER, `name` the job. */
export type AuditAutomation = z.infer<ReturnType<typeof AuditAutomationSchema>>;

const noId = (what: string) => nullableString(`Not set for this actor type (${what})`);
const actorType = (value: string, description: string) => meta(z.literal(value), { description });

/** A signed-in person, identified by `userId`. */
export const UserActorSchema = wireSchema(() =>
  meta(
    looseObject({
      type: actorType('USER', 'A signed-in person'),
      userId: meta(z.string(), { description: 'Id of the user' }),
      apiKeyId: noId('userId identifies a USER'),
    }),
    { description: 'USER: a signed-in person, identified by userId' },
  ),
);
/** A request authenticated with an API key, identified by `apiKeyId`. */
export const ApiKeyActorSchema = wireSchema(() =>
  meta(
    looseObject({
      type: actorType('API_KEY', 'A request authenticated with an API key'),
      apiKeyId: meta(z.string(), { description: 'Id of the API key (never the key itself)' }),
      userId: noId('apiKeyId identifies an API_KEY'),
    }),
    { description: 'API_KEY: a request authenticated with an API key (schemaVersion 2)' },
  ),
);
/** A process of the service that runs by itself. */
export const AutomationActorSchema = wireSchema(() =>
  meta(
    looseObject({
      type: actorType('AUTOMATION', 'A process of the service that runs by itself'),
      automation: AuditAutomationSchema(),
    }),
    { description: 'AUTOMATION: a scheduled job, a task at service start, or a reaction to another event' },
  ),
);
/** A caller not signed in (failed sign-in, password reset by e-mail link). */
export const AnonymousActorSchema = wireSchema(() =>
  meta(looseObject({ type: actorType('ANONYMOUS', 'A caller not signed in') }), {
    description: 'ANONYMOUS: a caller not signed in (a failed sign-in, a password reset by e-mail link)',
  }),
);
/** The service itself, when no more specific actor applies. */
export const SystemActorSchema = wireSchema(() =>
  meta(looseObject({ type: actorType('SYSTEM', 'The service itself') }), {
    description: 'SYSTEM: the service itself, when no more specific actor applies',
  }),
);
/** An actor type this version does not know (kept as received). */
export const OtherActor = wireSchema(() =>
  meta(looseObject({ type: meta(z.string(), { description: 'An actor type added after this document' }) }), {
    description: 'An actor type this document does not list yet; kept as received',
  }),
);

/**
 * Who acted. Narrow with {@link isActorType}; an unknown type or a known type without its
 * identifying field parses as `OtherActor` instead of failing.
 */
export const AuditActorSchema = wireSchema(() =>
  meta(
    z.union([
      UserActorSchema(),
      ApiKeyActorSchema(),
      AutomationActorSchema(),
      AnonymousActorSchema(),
      SystemActorSchema(),
      OtherActor(),
    ]),
    {
      description: 'Who acted: {type, userId, apiKeyId, automation}; the type says which field identifies it',
    },
  ),
);
/**
 * Who acted. Narrow with {@link isActorType}; an unknown type or a known type without its
 * identifying field parses as `OtherActor` instead of failing.
 */
export type AuditActor = z.infer<ReturnType<typeof AuditActorSchema>>;
/** A signed-in person, identified by `userId`. */
export type UserActor = z.infer<ReturnType<typeof UserActorSchema>>;
/** A request authenticated with an API key, identified by `apiKeyId`. */
export type ApiKeyActor = z.infer<ReturnType<typeof ApiKeyActorSchema>>;
/** A process of the service that runs by itself. */
export type AutomationActor = z.infer<ReturnType<typeof AutomationActorSchema>>;
/** A caller not signed in (failed sign-in, password reset by e-mail link). */
export type AnonymousActor = z.infer<ReturnType<typeof AnonymousActorSchema>>;
/** The service itself, when no more specific actor applies. */
export type SystemActor = z.infer<ReturnType<typeof SystemActorSchema>>;

interface ActorByType {
  USER: UserActor;
  API_KEY: ApiKeyActor;
  AUTOMATION: AutomationActor;
  ANONYMOUS: AnonymousActor;
  SYSTEM: SystemActor;
}

/**
 * Narrows an actor to a known type, checking the identifying field too.
 *
 * @example
 * if (isActorType(event.actor, 'AUTOMATION')) console.log(event.actor.automation.name);
 */
export function isActorType<T extends keyof ActorByType>(
  actor: AuditActor,
  type: T,
): actor is ActorByType[T] {
  if (actor.type !== type) return false;
  const a = actor as Record<string, unknown>;
  if (type === 'USER') return typeof a.userId === 'string';
  if (type === 'API_KEY') return typeof a.apiKeyId === 'string';
  if (type === 'AUTOMATION') return AuditAutomationSchema().safeParse(a.automation).success;
  return true;
}

/** One change of the subject. Secret values are never recorded: such a change has `isRedacted: true`. */
export const AuditChangeSchema = wireSchema(() =>
  meta(
    looseObject({
      field: meta(z.string(), { description: 'Name of the changed field of the subject' }),
      operation: meta(openEnum(CHANGE_OPERATIONS), {
        description: 'The kind of change, e.g. SET; the full list is not documented',
      }),
      before: meta(z.optional(z.unknown()), { description: 'Value before the change; absent when redacted' }),
      after: meta(z.optional(z.unknown()), { description: 'Value after the change; absent when redacted' }),
      isRedacted: meta(z.optional(z.boolean()), {
        description: 'true for a secret value: it is never recorded, so before and after are left out',
      }),
    }),
    { description: 'One change of the subject' },
  ),
);
/** One change of the subject. Secret values are never recorded: such a change has `isRedacted: true`. */
export type AuditChange = z.infer<ReturnType<typeof AuditChangeSchema>>;

/**
 * An audit event (element of `content`). Lenient: unknown fields and values are kept.
 * `schemaVersion` 2 tells API keys, automations and anonymous callers apart; 1 knows USER and SYSTEM.
 */
export const AuditEventSchema = wireSchema(() =>
  looseObject({
    id: meta(z.string(), {
      description:
        'Unique id; an event is never delivered with two different ids, so it serves to skip duplicates',
    }),
    // The client reads any later version (>= 1); the document states the two the reference defines.
    schemaVersion: meta(z.number().check(z.int()).check(z.gte(1)), {
      description:
        '2 for events since API keys, automations and anonymous callers are told apart; 1 for older events, whose actors are only USER and SYSTEM',
      maximum: 2,
    }),
    /** ISO 8601 UTC with milliseconds. */
    occurredAt: timestamp('When the event occurred, ISO 8601 UTC with milliseconds'),
    /** Subject kind followed by the action, e.g. `captcha.captcha.updated`. */
    type: meta(z.string(), {
      description:
        'Kind of the subject followed by the action, e.g. `platform.user.authentication-failed`, `captcha.captcha.updated`',
    }),
    action: meta(z.optional(z.string()), { description: 'The action, e.g. `updated`' }),
    subject: meta(z.optional(AuditResourceSchema()), { description: 'The resource acted on' }),
    scopes: meta(z.optional(z.array(AuditResourceSchema())), {
      description: 'The resources the subject belongs to',
    }),
    origin: meta(z.optional(z.nullable(AuditOriginSchema())), {
      description: 'Where the event was recorded; traceId is the reference for support',
    }),
    actor: AuditActorSchema(),
    changes: meta(z.optional(z.nullable(z.array(AuditChangeSchema()))), {
      description: 'The changes of the subject; secret values are never recorded',
    }),
    /** Facts that are not a change: sign-in method and masked IP, export format and range. */
    details: meta(z.optional(z.nullable(z.record(z.string(), z.unknown()))), {
      description:
        'Facts that are not a change of the subject: sign-in method and masked IP address of a sign-in, format and time range of an export',
    }),
  }),
);
/**
 * An audit event (element of `content`). Lenient: unknown fields and values are kept.
 * `schemaVersion` 2 tells API keys, automations and anonymous callers apart; 1 knows USER and SYSTEM.
 */
export type AuditEvent = z.infer<ReturnType<typeof AuditEventSchema>>;

/** Response of `GET /platform/v1/events`: one page, newest first. */
export const AuditEventPageSchema = wireSchema(() =>
  looseObject({
    from: timestamp('Start of the range read, ISO 8601 UTC (the default applied when none was sent)'),
    to: timestamp('End of the range read, ISO 8601 UTC; the server\'s "now" when none was sent'),
    content: meta(z.array(AuditEventSchema()), { description: 'The events of this page, newest first' }),
    page: meta(z.number().check(z.int()).check(z.gte(0)), { description: 'Zero-based index of this page' }),
    pageSize: meta(z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_PAGE_SIZE)), {
      description: `Events per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
    }),
    totalElements: meta(z.number().check(z.int()).check(z.gte(0)), {
      description: 'Number of events in the range (may grow while reading)',
    }),
    /** Pass as `cursor` (with the same `from` and `to`) for the next page; null on the last page. */
    nextCursor: meta(z.nullable(z.string()), {
      description:
        'Pass as `cursor` (with the same `from` and `to`) for the next page; null on the last page',
    }),
  }),
);
/** Response of `GET /platform/v1/events`: one page, newest first. */
export type AuditEventPage = z.infer<ReturnType<typeof AuditEventPageSchema>>;

/** The page envelope with events left unparsed: the exporter writes events exactly as received. */
export const RawEventPageSchema = wireSchema(() =>
  z.extend(AuditEventPageSchema(), { content: z.array(z.unknown()) }),
);
export type RawEventPage = z.infer<ReturnType<typeof RawEventPageSchema>>;

/** The page envelope without its events (checked on the export path, where events stay raw text). */
export const AuditPageEnvelope = wireSchema(() => z.omit(AuditEventPageSchema(), { content: true }));
