import type { AuditEvent } from '../schemas.js';
import { classifyEvent, type EventClass } from './classify.js';
import { isIpAddress } from './ip.js';
import {
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

/** The ECS version the documents follow (`ecs.version`): its field definitions are what the tests check against. */
export const ECS_VERSION = '9.4.0';

/** Options of {@link toEcs} and {@link toOcsf}. */
export interface NormaliseOptions {
  /** Add the event as received: `event.original` (ECS) or `raw_data` (OCSF). Default false. */
  keepOriginal?: boolean;
  /** The event's line as archived or received, used for the original (default: the event's JSON). */
  line?: string;
}

/** An audit event as an Elastic Common Schema document (nested objects, as `_bulk` takes them). */
export interface EcsDocument {
  '@timestamp': string;
  ecs: { version: string };
  event: {
    kind: 'event';
    category: string[];
    type: string[];
    action: string;
    outcome: 'success' | 'failure' | 'unknown';
    id: string;
    dataset: 'svc.audit';
    module: 'svc';
    provider?: string;
    original?: string;
  };
  user?: { id?: string; name?: string; target?: { id?: string; name?: string } };
  source?: { ip: string };
  related?: { user?: string[]; ip?: string[] };
  trace?: { id: string };
  transaction?: { id: string };
  /** Everything else of the event, under this product's own namespace (documented in docs/audit-imports.md). */
  svc: Record<string, unknown>;
}

/** ECS `event.category` and `event.type` of each family and verb (only values ECS allows, in pairs it expects). */
function categorise(
  kind: string | undefined,
  { family, verb }: EventClass,
): { category: string[]; type: string[] } {
  if (family === 'sign-in') return { category: ['authentication'], type: ['start'] };
  const done = verb === 'creation' ? 'creation' : verb === 'deletion' ? 'deletion' : 'change';
  if (family === 'account') return { category: ['iam'], type: ['user', done] };
  if (family === 'entity')
    return { category: [kind === 'platform.api-key' ? 'iam' : 'configuration'], type: [done] };
  return { category: ['api'], type: [verb === 'access' ? 'access' : 'info'] };
}

/**
 * An audit event as an ECS document: `@timestamp`, `event.*` (kind `event`, category and type
 * from the table in docs/audit-imports.md, `event.action` the event's type, `event.id` its id),
 * `user.*` (the signed-in user acting; the person signing in for a sign-in; the account changed
 * as `user.target`), `source.ip` (a sign-in's masked address), `trace.id` and `transaction.id`
 * from its origin; the rest under `svc.*`. Every event maps, any unknown type to the `api`/`info`
 * fallback; nothing is dropped. Runs anywhere (Web APIs only).
 */
export function toEcs(event: AuditEvent, options: NormaliseOptions = {}): EcsDocument {
  const kinds = classifyEvent(event);
  const actor = actorParts(event);
  const subject = subjectParts(event);
  const details = detailsOf(event);
  const ip = isIpAddress(details?.ipAddress) ? details.ipAddress : undefined;
  const person = subject.kind === 'platform.user' || subject.kind === 'platform.organization-member';
  const signIn = kinds.family === 'sign-in';
  const user = compact({
    id: signIn ? subject.id : actor.userId,
    name: signIn ? subject.label : undefined,
    target: !signIn && person ? compact({ id: subject.id, name: subject.label }) : undefined,
  });
  const relatedUsers = [
    ...new Set([actor.userId, person ? subject.id : undefined].filter((u) => u !== undefined)),
  ];
  const origin = event.origin as unknown;
  const traceId = text(member(origin, 'traceId'));
  const transactionId = text(member(origin, 'transactionId'));
  return compact({
    '@timestamp': event.occurredAt,
    ecs: { version: ECS_VERSION },
    event: compact({
      kind: 'event' as const,
      ...categorise(subject.kind, kinds),
      action: text(event.type) ?? 'unknown',
      outcome: kinds.outcome,
      id: event.id,
      dataset: 'svc.audit' as const,
      module: 'svc' as const,
      provider: text(member(origin, 'applicationName')),
      original: options.keepOriginal ? originalText(event, options.line) : undefined,
    }),
    user,
    source: ip ? { ip } : undefined,
    related: compact({ user: relatedUsers, ip: ip ? [ip] : [] }),
    trace: traceId ? { id: traceId } : undefined,
    transaction: transactionId ? { id: transactionId } : undefined,
    svc: compact({
      schema_version: event.schemaVersion,
      type: text(event.type),
      action: text(event.action),
      subject: compact(subject),
      scopes: scopeParts(event),
      actor: compact({
        type: actor.type,
        user_id: actor.userId,
        api_key_id: actor.apiKeyId,
        automation: compact({ kind: actor.automationKind, name: actor.automationName }),
      }),
      origin: compact({
        namespace: text(member(origin, 'namespace')),
        source: text(member(origin, 'source')),
        application_name: text(member(origin, 'applicationName')),
      }),
      changes: changeParts(event),
      details,
    }),
  }) as EcsDocument;
}
