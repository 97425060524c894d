import { z } from 'zod';
import { openEnum } from '../core/schema.js';

/** Actor types of schemaVersion 2 (schemaVersion 1 knows only USER and SYSTEM). */
export const ACTOR_TYPES = ['USER', 'API_KEY', 'AUTOMATION', 'ANONYMOUS', 'SYSTEM'] as const;
/** Kinds of service process behind an AUTOMATION actor. */
export const AUTOMATION_KINDS = ['SCHEDULER', 'RUNNER', 'LISTENER'] as const;
/** Shown value of `changes.operation`; the full list is not documented. */
export const CHANGE_OPERATIONS = ['SET'] as const;

/** `{kind, id, label}`: a resource (subject or scope). `kind` names are internal, e.g. `platform.subscription` is a project. */
export const AuditResource = z.looseObject({
  kind: z.string(),
  id: z.string(),
  /** Name of the resource at the time of the event. */
  label: z.string().nullable().optional(),
});
export type AuditResource = z.infer<typeof AuditResource>;

/** Where the event was recorded; `traceId` is the reference for support. */
export const AuditOrigin = z.looseObject({
  namespace: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  applicationName: z.string().nullable().optional(),
  traceId: z.string().nullable().optional(),
  transactionId: z.string().nullable().optional(),
});
export type AuditOrigin = z.infer<typeof AuditOrigin>;

/** The automation behind an AUTOMATION actor: `kind` SCHEDULER, RUNNER or LISTENER, `name` the job. */
export const AuditAutomation = z.looseObject({
  kind: openEnum(AUTOMATION_KINDS),
  name: z.string(),
});
export type AuditAutomation = z.infer<typeof AuditAutomation>;

const noId = z.string().nullable().optional();

/** A signed-in person, identified by `userId`. */
export const UserActor = z.looseObject({ type: z.literal('USER'), userId: z.string(), apiKeyId: noId });
/** A request authenticated with an API key, identified by `apiKeyId`. */
export const ApiKeyActor = z.looseObject({ type: z.literal('API_KEY'), apiKeyId: z.string(), userId: noId });
/** A process of the service that runs by itself. */
export const AutomationActor = z.looseObject({ type: z.literal('AUTOMATION'), automation: AuditAutomation });
/** A caller not signed in (failed sign-in, password reset by e-mail link). */
export const AnonymousActor = z.looseObject({ type: z.literal('ANONYMOUS') });
/** The service itself, when no more specific actor applies. */
export const SystemActor = z.looseObject({ type: z.literal('SYSTEM') });
/** An actor type this version does not know (kept as received). */
export const OtherActor = z.looseObject({ type: z.string() });

/**
 * Who acted. Narrow with {@link isActorType}; an unknown type or a known type without its
 * identifying field parses as {@link OtherActor} instead of failing.
 */
export const AuditActor = z.union([
  UserActor,
  ApiKeyActor,
  AutomationActor,
  AnonymousActor,
  SystemActor,
  OtherActor,
]);
export type AuditActor = z.infer<typeof AuditActor>;
export type UserActor = z.infer<typeof UserActor>;
export type ApiKeyActor = z.infer<typeof ApiKeyActor>;
export type AutomationActor = z.infer<typeof AutomationActor>;
export type AnonymousActor = z.infer<typeof AnonymousActor>;
export type SystemActor = z.infer<typeof SystemActor>;

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
  if (type === 'AUTOMATION') return AuditAutomation.safeParse(a.automation).success;
  return true;
}

/** One change of the subject. Secret values are never recorded: such a change has `isRedacted: true`. */
export const AuditChange = z.looseObject({
  field: z.string(),
  operation: openEnum(CHANGE_OPERATIONS),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  isRedacted: z.boolean().optional(),
});
export type AuditChange = z.infer<typeof AuditChange>;

/**
 * An audit event (element of `content`). Lenient: unknown fields and values are kept.
 * `schemaVersion` 2 tells API keys, automations and anonymous callers apart; 1 knows USER and SYSTEM.
 */
export const AuditEvent = z.looseObject({
  id: z.string(),
  schemaVersion: z.number().int(),
  /** ISO 8601 UTC with milliseconds. */
  occurredAt: z.string(),
  /** Subject kind followed by the action, e.g. `captcha.captcha.updated`. */
  type: z.string(),
  action: z.string().optional(),
  subject: AuditResource.optional(),
  scopes: z.array(AuditResource).optional(),
  origin: AuditOrigin.nullable().optional(),
  actor: AuditActor,
  changes: z.array(AuditChange).nullable().optional(),
  /** Facts that are not a change: sign-in method and masked IP, export format and range. */
  details: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** Response of `GET /platform/v1/events`: one page, newest first. */
export const AuditEventPage = z.looseObject({
  from: z.string(),
  to: z.string(),
  content: z.array(AuditEvent),
  page: z.number().int(),
  pageSize: z.number().int(),
  totalElements: z.number().int(),
  /** Pass as `cursor` (with the same `from` and `to`) for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditEventPage = z.infer<typeof AuditEventPage>;

/** The page envelope with events left unparsed: the exporter writes events exactly as received. */
export const RawEventPage = AuditEventPage.extend({ content: z.array(z.unknown()) });
export type RawEventPage = z.infer<typeof RawEventPage>;

/** The page envelope without its events (checked on the export path, where events stay raw text). */
export const AuditPageEnvelope = AuditEventPage.omit({ content: true });
