import type { AuditEvent } from '../schemas.js';
import type { AuditQuery, AuditQueryTerm, TextTest } from './query.js';

/** A part of an event as text, or undefined when the event has no such part. */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

type Fields = Record<string, unknown>;
const record = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The three texts of a resource: kind, id, label. */
const resourceTexts = (value: unknown): (string | undefined)[] => {
  const resource = record(value);
  return resource ? [text(resource.kind), text(resource.id), text(resource.label)] : [];
};

/**
 * The values each qualifier reads of an event (a term matches when one of them passes its test):
 * - `id`: the event's id; `type`: its type (`captcha.captcha.updated`); `action`: its action;
 * - `actor`: the actor's id: `userId`, `apiKeyId` or its automation's `name`;
 * - `actor.type`: `USER`, `API_KEY`, `AUTOMATION`, `ANONYMOUS`, `SYSTEM` (schemaVersion 1 events
 *   know USER and SYSTEM);
 * - `subject`: the subject's kind, id or label; `scope`: the kind, id or label of any scope;
 * - `field`: the field of any change; `ip`: the masked IP address of a sign-in (`details.ipAddress`);
 * - `origin.<member>`: that member of the origin (`origin.namespace:CAPTCHA`, `origin.traceId:...`).
 */
function valuesOf(
  event: AuditEvent,
  qualifier: Exclude<AuditQueryTerm['qualifier'], 'occurred'>,
): (string | undefined)[] {
  const e = event as unknown as Fields;
  switch (qualifier) {
    case 'id':
      return [text(e.id)];
    case 'type':
      return [text(e.type)];
    case 'action':
      return [text(e.action)];
    case 'actor': {
      const actor = record(e.actor);
      return actor ? [text(actor.userId), text(actor.apiKeyId), text(record(actor.automation)?.name)] : [];
    }
    case 'actor.type':
      return [text(record(e.actor)?.type)];
    case 'subject':
      return resourceTexts(e.subject);
    case 'scope':
      return list(e.scopes).flatMap(resourceTexts);
    case 'field':
      return list(e.changes).map((change) => text(record(change)?.field));
    case 'ip':
      return [text(record(e.details)?.ipAddress)];
    default:
      return [text(record(e.origin)?.[qualifier.slice('origin.'.length)])];
  }
}

/** The member of an event (at its top level) each qualifier reads: `valuesOf` reads no other. */
const MEMBER: Readonly<Record<Exclude<AuditQueryTerm['qualifier'], `origin.${string}`>, string>> = {
  id: 'id',
  type: 'type',
  action: 'action',
  actor: 'actor',
  'actor.type': 'actor',
  subject: 'subject',
  scope: 'scopes',
  field: 'changes',
  ip: 'details',
  occurred: 'occurredAt',
};

/**
 * The top-level members of an event that {@link matchesAuditQuery} reads for `query`: an object
 * holding only these, as the event holds them, matches exactly as the whole event does. So a
 * reader of archived lines may parse just these members of a line (node/audit-search).
 */
export function membersRead(query: AuditQuery): string[] {
  const members = new Set<string>();
  for (const group of query.groups)
    for (const { qualifier } of group)
      members.add(qualifier.startsWith('origin.') ? 'origin' : MEMBER[qualifier as keyof typeof MEMBER]);
  return [...members];
}

function passes(test: TextTest, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (test.kind === 'present') return true;
  const lower = value.toLowerCase();
  return test.kind === 'equals' ? lower === test.value : lower.startsWith(test.value);
}

function termMatches(term: AuditQueryTerm, event: AuditEvent): boolean {
  let hit: boolean;
  if (term.qualifier === 'occurred') {
    const at = Date.parse(typeof event.occurredAt === 'string' ? event.occurredAt : '');
    const { from, to } = term.span;
    hit = !Number.isNaN(at) && (from === undefined || at >= from) && (to === undefined || at < to);
  } else {
    const { test } = term;
    hit = valuesOf(event, term.qualifier).some((value) => passes(test, value));
  }
  return hit !== term.negated;
}

/**
 * Whether an event matches a parsed query ((`parseAuditQuery`, query.ts)): every term of one of its
 * groups holds. A negated term holds when no value of the event passes its test (so `-action:x`
 * also holds for an event without an action); `occurred:` reads `occurredAt`, and an event whose
 * time does not parse matches no span.
 */
export function matchesAuditQuery(query: AuditQuery, event: AuditEvent): boolean {
  return query.groups.some((group) => group.every((term) => termMatches(term, event)));
}
