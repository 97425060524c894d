import type { AuditEvent } from '../schemas.js';

// The parts of an event both mappings read, taken once and defensively: a lenient event may
// hold anything where the reference shows a string, and nothing from it is trusted to be one.

/** A string value, or undefined. */
export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A member of an object value, or undefined. */
export const member = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;

/** A value as JSON text (how values of any shape are carried in fields of one type). */
export const jsonText = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/** Drops members whose value is undefined, and objects left empty (`{}` says nothing in a SIEM). */
export function compact<T extends Record<string, unknown>>(object: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined) continue;
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length === 0
    )
      continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out as T;
}

/** Who acted, as the mappings carry it. */
export interface ActorParts {
  type: string | undefined;
  userId: string | undefined;
  apiKeyId: string | undefined;
  automationKind: string | undefined;
  automationName: string | undefined;
}

/** The actor's parts; schemaVersion 1 actors (USER, SYSTEM) read the same way. */
export function actorParts(event: AuditEvent): ActorParts {
  const actor = event.actor as unknown;
  const automation = member(actor, 'automation');
  return {
    type: text(member(actor, 'type')),
    userId: text(member(actor, 'userId')),
    apiKeyId: text(member(actor, 'apiKeyId')),
    automationKind: text(member(automation, 'kind')),
    automationName: text(member(automation, 'name')),
  };
}

/** The subject's kind, id and label. */
export function subjectParts(event: AuditEvent): { kind?: string; id?: string; label?: string } {
  const subject = event.subject as unknown;
  return compact({
    kind: text(member(subject, 'kind')),
    id: text(member(subject, 'id')),
    label: text(member(subject, 'label')),
  });
}

/** The event's scopes as `{kind, id, label}` of strings. */
export function scopeParts(event: AuditEvent): Array<{ kind?: string; id?: string; label?: string }> {
  const scopes = Array.isArray(event.scopes) ? (event.scopes as unknown[]) : [];
  return scopes.map((scope) =>
    compact({
      kind: text(member(scope, 'kind')),
      id: text(member(scope, 'id')),
      label: text(member(scope, 'label')),
    }),
  );
}

/** The changes, values as JSON text (a field of one type whatever the value), redacted ones marked. */
export function changeParts(
  event: AuditEvent,
): Array<{ field?: string; operation?: string; before?: string; after?: string; redacted?: boolean }> {
  const changes = Array.isArray(event.changes) ? (event.changes as unknown[]) : [];
  return changes.map((change) => {
    const redacted = member(change, 'isRedacted') === true;
    return compact({
      field: text(member(change, 'field')),
      operation: text(member(change, 'operation')),
      before: redacted ? undefined : jsonText(member(change, 'before')),
      after: redacted ? undefined : jsonText(member(change, 'after')),
      redacted: redacted || undefined,
    });
  });
}

/** The details object (sign-in method, masked IP, export range), or undefined. */
export function detailsOf(event: AuditEvent): Record<string, unknown> | undefined {
  const details = event.details as unknown;
  return typeof details === 'object' && details !== null && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : undefined;
}

/** The original of an event for `event.original` / `raw_data`: its archived line, else its JSON. */
export const originalText = (event: AuditEvent, line: string | undefined): string =>
  line ?? JSON.stringify(event);
