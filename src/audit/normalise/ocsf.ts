import type { AuditEvent } from '../schemas.js';
import { classifyEvent, type EventClass } from './classify.js';
import type { NormaliseOptions } from './ecs.js';
import { isIpAddress } from './ip.js';
import {
  type ActorParts,
  actorParts,
  changeParts,
  compact,
  detailsOf,
  member,
  originalText,
  scopeParts,
  subjectParts,
  text,
} from './parts.js';

/** The OCSF schema version the events follow (`metadata.version`). */
export const OCSF_VERSION = '1.3.0';

/** The OCSF classes events map to, by family (see docs/audit-imports.md). */
export const OCSF_CLASSES = {
  /** Account Change (Identity & Access Management). */
  account: 3001,
  /** Authentication (Identity & Access Management): sign-ins. */
  'sign-in': 3002,
  /** Entity Management (Identity & Access Management): changes of managed resources. */
  entity: 3004,
  /** API Activity (Application Activity): everything else, and the fallback for unknown types. */
  activity: 6003,
} as const;

/** An OCSF user object as the mapping fills it. */
export interface OcsfUser {
  uid?: string;
  name?: string;
  type?: string;
  type_id: number;
  credential_uid?: string;
}

/** An audit event as an OCSF 1.x event of one of {@link OCSF_CLASSES}. */
export interface OcsfEvent {
  class_uid: number;
  category_uid: number;
  activity_id: number;
  /** `class_uid * 100 + activity_id`. */
  type_uid: number;
  /** Milliseconds since the epoch. */
  time: number;
  severity_id: 1;
  status_id: 0 | 1 | 2;
  status?: 'Success' | 'Failure';
  metadata: {
    uid: string;
    version: string;
    product: { name: string; vendor_name: string };
    event_code?: string;
    /** The event's `origin.traceId`: the reference to quote to support. */
    correlation_uid?: string;
    original_time: string;
  };
  actor: { user?: OcsfUser; app_name?: string };
  /** Authentication and Account Change: the person signing in, or whose account changed. */
  user?: OcsfUser;
  /** Entity Management: the resource changed. */
  entity?: { uid?: string; name?: string; type?: string };
  /** API Activity: what was done. */
  api?: { operation: string; service?: { name: string } };
  src_endpoint?: { ip?: string; name?: string };
  /** The event's own fields OCSF has no attribute for. */
  unmapped?: Record<string, unknown>;
  raw_data?: string;
}

/** `activity_id` of each class for each verb (99 Other where the class has no such activity). */
function activityOf({ family, verb }: EventClass): number {
  if (family === 'sign-in') return 1; // Logon
  if (family === 'account')
    return verb === 'creation' ? 1 : verb === 'deletion' ? 6 : verb === 'password-reset' ? 4 : 99;
  if (family === 'entity') return verb === 'creation' ? 1 : verb === 'deletion' ? 4 : 3;
  return verb === 'access' ? 2 : 99; // Read, Other
}

/** The actor as an OCSF actor: a user (type User or System, an API key as its credential) or an app. */
function ocsfActor(actor: ActorParts): OcsfEvent['actor'] {
  switch (actor.type) {
    case 'USER':
      return { user: compact({ uid: actor.userId, type: 'User', type_id: 1 }) };
    case 'API_KEY':
      return { user: compact({ credential_uid: actor.apiKeyId, type: 'Other', type_id: 99 }) };
    case 'AUTOMATION':
      return compact({
        app_name: actor.automationName,
        user: { name: actor.automationKind, type: 'System', type_id: 3 },
      });
    case 'SYSTEM':
      return { user: { type: 'System', type_id: 3 } };
    default:
      return { user: { type: 'Unknown', type_id: 0 } };
  }
}

/**
 * An audit event as an OCSF 1.x event: sign-ins as Authentication (3002), changes of a person's
 * account as Account Change (3001), of other resources as Entity Management (3004), everything
 * else (and any unknown type) as API Activity (6003); `type_uid = class_uid * 100 + activity_id`,
 * `metadata.uid` the event's id, `time` its `occurredAt` in ms, the event's own fields that OCSF
 * has no attribute for under `unmapped`. Runs anywhere (Web APIs only).
 */
export function toOcsf(event: AuditEvent, options: NormaliseOptions = {}): OcsfEvent {
  const kinds = classifyEvent(event);
  const class_uid = OCSF_CLASSES[kinds.family];
  const activity_id = activityOf(kinds);
  const subject = subjectParts(event);
  const details = detailsOf(event);
  const ip = isIpAddress(details?.ipAddress) ? details.ipAddress : undefined;
  const origin = event.origin as unknown;
  const application = text(member(origin, 'applicationName'));
  const person = compact({ uid: subject.id, name: subject.label, type: 'User', type_id: 1 });
  const status_id = kinds.outcome === 'success' ? 1 : kinds.outcome === 'failure' ? 2 : 0;
  return compact({
    class_uid,
    category_uid: Math.floor(class_uid / 1000),
    activity_id,
    type_uid: class_uid * 100 + activity_id,
    time: Date.parse(event.occurredAt),
    severity_id: 1 as const,
    status_id,
    status: status_id === 1 ? ('Success' as const) : status_id === 2 ? ('Failure' as const) : undefined,
    metadata: compact({
      uid: event.id,
      version: OCSF_VERSION,
      product: { name: 'audit log', vendor_name: 'svc' },
      event_code: text(event.type),
      correlation_uid: text(member(origin, 'traceId')),
      original_time: event.occurredAt,
    }),
    actor: ocsfActor(actorParts(event)),
    user: kinds.family === 'sign-in' || kinds.family === 'account' ? person : undefined,
    // An event without a subject still names what it was about: its type.
    entity:
      kinds.family === 'entity'
        ? subject.id || subject.label || subject.kind
          ? compact({ uid: subject.id, name: subject.label, type: subject.kind })
          : { name: text(event.type) ?? 'unknown' }
        : undefined,
    api:
      kinds.family === 'activity'
        ? compact({
            operation: text(event.type) ?? 'unknown',
            service: application ? { name: application } : undefined,
          })
        : undefined,
    // Where a request came from is known only for sign-ins (their masked address).
    src_endpoint: ip ? { ip } : kinds.family === 'activity' ? { name: 'unknown' } : undefined,
    unmapped: compact({
      schema_version: event.schemaVersion,
      action: text(event.action),
      subject: compact(subject),
      scopes: scopeParts(event),
      origin: compact({
        namespace: text(member(origin, 'namespace')),
        source: text(member(origin, 'source')),
        application_name: application,
        trace_id: text(member(origin, 'traceId')),
        transaction_id: text(member(origin, 'transactionId')),
      }),
      changes: changeParts(event),
      details,
    }),
    raw_data: options.keepOriginal ? originalText(event, options.line) : undefined,
  }) as OcsfEvent;
}
