import type { AuditEvent } from '../schemas.js';

// What an audit event is, in the terms both ECS and OCSF sort events by: one table for both
// mappings (ecs.ts, ocsf.ts), so a sign-in is a sign-in in each. The reference names its types
// `<subject kind>.<action>`; the actions it shows are listed here, any other falls back to a
// generic "something happened" (never dropped).

/** What kind of thing happened. */
export type EventFamily =
  /** A sign-in, succeeded or failed. */
  | 'sign-in'
  /** A change of a person's account (a user or a member of an organisation). */
  | 'account'
  /** A change of a managed resource: a captcha, a project, an API key, a schedule. */
  | 'entity'
  /** Anything else: an export, a report, a job that ran, a quota reached, an unknown type. */
  | 'activity';

/** What was done to the subject. */
export type EventVerb = 'creation' | 'change' | 'deletion' | 'password-reset' | 'access' | 'info';

/** How {@link classifyEvent} sees an event. */
export interface EventClass {
  family: EventFamily;
  verb: EventVerb;
  /** `failure` for a failed sign-in, `success` for an action the reference shows, else `unknown`. */
  outcome: 'success' | 'failure' | 'unknown';
  /** False for a type whose action this table does not know (the documented fallback). */
  known: boolean;
}

/** The actions the reference shows, and what each does to its subject. */
const VERBS: Readonly<Record<string, EventVerb>> = {
  created: 'creation',
  added: 'creation',
  updated: 'change',
  renewed: 'change',
  'plan-synchronized': 'change',
  'bypass-key-rotated': 'change',
  deleted: 'deletion',
  removed: 'deletion',
  'password-reset': 'password-reset',
  'audit-log-exported': 'access',
  'report-generated': 'access',
  executed: 'info',
  'quota-reached': 'info',
};

/** Subject kinds that are a person's account. */
const ACCOUNT_KINDS = new Set(['platform.user', 'platform.organization-member']);

/** The event's action: `action`, else the last part of `type` after the subject kind. */
export function actionOf(event: Pick<AuditEvent, 'type' | 'action' | 'subject'>): string {
  if (typeof event.action === 'string' && event.action !== '') return event.action;
  const type = typeof event.type === 'string' ? event.type : '';
  const kind = event.subject?.kind;
  if (kind && type.startsWith(`${kind}.`)) return type.slice(kind.length + 1);
  return type.slice(type.lastIndexOf('.') + 1);
}

/** Sorts an event into the families and verbs both mappings use (see the table in docs/audit-imports.md). */
export function classifyEvent(event: Pick<AuditEvent, 'type' | 'action' | 'subject'>): EventClass {
  const action = actionOf(event);
  if (action === 'authenticated' || action === 'authentication-failed')
    return {
      family: 'sign-in',
      verb: 'info',
      outcome: action === 'authenticated' ? 'success' : 'failure',
      known: true,
    };
  const verb = Object.hasOwn(VERBS, action) ? (VERBS[action] as EventVerb) : undefined;
  if (!verb) return { family: 'activity', verb: 'info', outcome: 'unknown', known: false };
  const kind = typeof event.subject?.kind === 'string' ? event.subject.kind : '';
  const family: EventFamily =
    verb === 'access' || verb === 'info' ? 'activity' : ACCOUNT_KINDS.has(kind) ? 'account' : 'entity';
  return { family, verb, outcome: 'success', known: true };
}
