import type { AuditEvent } from '../schemas.js';

// How an audit event reads as a row: the columns of `svc audit search -o csv` (and of its table,
// the first five), one place for every command and report that lists events.

/** The columns of an event row, in order. */
export const EVENT_COLUMNS = [
  'id',
  'occurredAt',
  'type',
  'action',
  'actorType',
  'actor',
  'subjectKind',
  'subjectId',
  'subjectLabel',
  'scopes',
  'fields',
  'ip',
  'traceId',
] as const;

/** The columns of an event's table row: id, time, type, who, what. */
export const EVENT_TABLE_COLUMNS = ['id', 'occurredAt', 'type', 'actor', 'subject'] as const;

type Fields = Record<string, unknown>;
const record = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The id that identifies an actor: its user, API key or automation name (empty for ANONYMOUS and SYSTEM). */
export function actorId(actor: unknown): string {
  const a = record(actor);
  if (!a) return '';
  return text(a.userId) || text(a.apiKeyId) || text(record(a.automation)?.name);
}

/** How an actor reads in a table: its type and what identifies it (`USER usr_alice`, `AUTOMATION SCHEDULER/nightly`). */
export function actorLabel(actor: unknown): string {
  const a = record(actor);
  if (!a) return '';
  const automation = record(a.automation);
  if (a.type === 'AUTOMATION' && automation)
    return `AUTOMATION ${text(automation.kind)}/${text(automation.name)}`;
  const id = actorId(a);
  return id ? `${text(a.type)} ${id}` : text(a.type);
}

/** An event as the cells of {@link EVENT_COLUMNS}: scopes and changed fields joined with `;`. */
export function eventRow(event: AuditEvent): string[] {
  const e = event as unknown as Fields;
  const subject = record(e.subject);
  const scopes = Array.isArray(e.scopes) ? e.scopes : [];
  const changes = Array.isArray(e.changes) ? e.changes : [];
  return [
    text(e.id),
    text(e.occurredAt),
    text(e.type),
    text(e.action),
    text(record(e.actor)?.type),
    actorId(e.actor),
    text(subject?.kind),
    text(subject?.id),
    text(subject?.label),
    scopes.map((s) => text(record(s)?.id)).join(';'),
    changes.map((c) => text(record(c)?.field)).join(';'),
    text(record(e.details)?.ipAddress),
    text(record(e.origin)?.traceId),
  ];
}

/** An event as the cells of {@link EVENT_TABLE_COLUMNS}. */
export function eventTableRow(event: AuditEvent): string[] {
  const subject = record((event as unknown as Fields).subject);
  return [
    text(event.id),
    text(event.occurredAt),
    text(event.type),
    actorLabel(event.actor),
    text(subject?.label) || text(subject?.id),
  ];
}
