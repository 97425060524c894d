import { DEMO } from '../fixtures.js';

/** The owner of an event stream: a project (with its modules) or an agency. */
export interface AuditOwner {
  kind: 'project' | 'agency';
  id: string;
}

/** Store key of an owner, e.g. `project:demo`. */
export function ownerKey(owner: AuditOwner): string {
  return `${owner.kind}:${owner.id}`;
}

/** Values a template draws from; all derived from the event's hash so generation is reproducible. */
export interface TemplateInput {
  owner: AuditOwner;
  /** 32 pseudo-random bits per call. */
  bits: (n: number) => number;
  /** Hex string of `length` pseudo-random digits. */
  hex: (length: number) => string;
  id: string;
  occurredAt: string;
}

type Json = Record<string, unknown>;
type Template = (input: TemplateInput) => Json;

const USERS = ['usr_alice', 'usr_bob', 'usr_carol', 'usr_dave'];
const KEYS = ['key_ci_export', 'key_backend', 'key_siem'];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

function scopeOf(owner: AuditOwner): Json {
  if (owner.kind === 'agency') {
    return {
      kind: 'platform.organization',
      id: owner.id,
      label: owner.id === DEMO.agencyId ? 'Demo agency' : owner.id,
    };
  }
  return {
    kind: 'platform.subscription',
    id: owner.id,
    label: owner.id === DEMO.projectId ? 'Demo project' : owner.id,
  };
}

function origin(input: TemplateInput, namespace: string, source: string, applicationName: string): Json {
  return { namespace, source, applicationName, traceId: input.hex(32), transactionId: input.hex(16) };
}

const user = (input: TemplateInput): Json => ({
  type: 'USER',
  userId: pick(USERS, input.bits(0)),
  apiKeyId: null,
  automation: null,
});
const apiKey = (input: TemplateInput): Json => ({
  type: 'API_KEY',
  userId: null,
  apiKeyId: pick(KEYS, input.bits(1)),
  automation: null,
});
const automation = (kind: string, name: string): Json => ({
  type: 'AUTOMATION',
  userId: null,
  apiKeyId: null,
  automation: { kind, name },
});
const bare = (type: 'ANONYMOUS' | 'SYSTEM'): Json => ({
  type,
  userId: null,
  apiKeyId: null,
  automation: null,
});

/** Sign-in IPs are recorded masked: the last octet is zeroed. */
function maskedIp(input: TemplateInput): string {
  return `${pick(['203.0.113', '198.51.100', '192.0.2'], input.bits(2))}.0`;
}

function event(
  input: TemplateInput,
  schemaVersion: 1 | 2,
  subject: Json,
  action: string,
  rest: { actor: Json; origin: Json; changes?: Json[]; details?: Json; moduleScope?: Json },
): Json {
  const scopes = [scopeOf(input.owner)];
  if (rest.moduleScope) scopes.push(rest.moduleScope);
  return {
    id: input.id,
    schemaVersion,
    occurredAt: input.occurredAt,
    type: `${subject.kind as string}.${action}`,
    action,
    subject,
    scopes,
    origin: rest.origin,
    actor: rest.actor,
    changes: rest.changes ?? [],
    details: rest.details ?? {},
  };
}

const set = (field: string, before: unknown, after: unknown): Json => ({
  field,
  operation: 'SET',
  before,
  after,
  isRedacted: false,
});
const redacted = (field: string): Json => ({
  field,
  operation: 'SET',
  before: null,
  after: null,
  isRedacted: true,
});

const captcha = { kind: 'captcha.captcha', id: DEMO.captchaId, label: 'Demo captcha' };

/** Project templates: every actor type, both schema versions, redacted changes and details. */
const PROJECT: Template[] = [
  (i) =>
    event(i, 2, captcha, 'updated', {
      actor: user(i),
      origin: origin(i, 'CAPTCHA', 'REST_CONTROLLER', 'captcha-api'),
      changes: [set('name', 'Demo captcha', 'Demo captcha (prod)'), redacted('secretKey')],
      moduleScope: captcha,
    }),
  (i) =>
    event(
      i,
      2,
      { kind: 'taxvalidation.tax-identifier', id: `tin_${i.hex(8)}`, label: 'DE136695976' },
      'created',
      {
        actor: apiKey(i),
        origin: origin(i, 'TAXVALIDATION', 'REST_CONTROLLER', 'taxvalidation-api'),
        changes: [set('rawValue', null, 'DE136695976')],
      },
    ),
  (i) =>
    event(
      i,
      2,
      { kind: 'taxvalidation.schedule', id: `sch_${i.hex(8)}`, label: 'DE136695976 monthly' },
      'executed',
      {
        actor: automation('SCHEDULER', 'tax-validation-schedules'),
        origin: origin(i, 'TAXVALIDATION', 'SCHEDULER', 'taxvalidation-worker'),
      },
    ),
  (i) =>
    event(i, 2, scopeOf(i.owner), 'plan-synchronized', {
      actor: automation('RUNNER', 'plan-sync-on-start'),
      origin: origin(i, 'PLATFORM', 'STARTUP_RUNNER', 'platform-core'),
      changes: [set('plan', 'business', 'business')],
    }),
  (i) =>
    event(i, 2, captcha, 'bypass-key-rotated', {
      actor: automation('LISTENER', 'captcha-config-listener'),
      origin: origin(i, 'CAPTCHA', 'EVENT_LISTENER', 'captcha-api'),
      changes: [redacted('bypassKey')],
      moduleScope: captcha,
    }),
  (i) =>
    event(i, 2, { kind: 'platform.api-key', id: pick(KEYS, i.bits(3)), label: 'CI export' }, 'created', {
      actor: user(i),
      origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-api'),
      changes: [set('role', null, 'MEMBER'), redacted('key')],
    }),
  (i) =>
    event(
      i,
      2,
      { kind: 'platform.user', id: pick(USERS, i.bits(4)), label: 'Alice Example' },
      'authentication-failed',
      {
        actor: bare('ANONYMOUS'),
        origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-auth'),
        details: { signInMethod: 'PASSWORD', ipAddress: maskedIp(i) },
      },
    ),
  (i) =>
    event(
      i,
      2,
      { kind: 'platform.user', id: pick(USERS, i.bits(5)), label: 'Alice Example' },
      'authenticated',
      {
        actor: user(i),
        origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-auth'),
        details: { signInMethod: 'SSO', ipAddress: maskedIp(i) },
      },
    ),
  (i) =>
    event(i, 2, scopeOf(i.owner), 'audit-log-exported', {
      actor: apiKey(i),
      origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-api'),
      details: { format: 'NDJSON', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' },
    }),
  (i) =>
    event(i, 2, scopeOf(i.owner), 'quota-reached', {
      actor: bare('SYSTEM'),
      origin: origin(i, 'PLATFORM', 'SYSTEM', 'platform-core'),
      details: { quota: 'identifiers' },
    }),
  (i) =>
    event(i, 1, captcha, 'updated', {
      actor: { type: 'USER', userId: pick(USERS, i.bits(6)) },
      origin: origin(i, 'CAPTCHA', 'REST_CONTROLLER', 'captcha-api'),
      changes: [set('mode', 'STANDARD', 'MINIMAL_DATA')],
      moduleScope: captcha,
    }),
  (i) =>
    event(i, 1, scopeOf(i.owner), 'renewed', {
      actor: { type: 'SYSTEM' },
      origin: origin(i, 'PLATFORM', 'SYSTEM', 'platform-billing'),
    }),
];

/** Agency templates: the agency's own events only. */
const AGENCY: Template[] = [
  (i) =>
    event(i, 2, scopeOf(i.owner), 'updated', {
      actor: user(i),
      origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-api'),
      changes: [set('billingEmail', 'old@agency.example', 'billing@agency.example')],
    }),
  (i) =>
    event(
      i,
      2,
      { kind: 'platform.organization-member', id: pick(USERS, i.bits(7)), label: 'Bob Example' },
      'added',
      {
        actor: user(i),
        origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-api'),
        changes: [set('role', null, 'AUDITOR')],
      },
    ),
  (i) =>
    event(i, 2, { kind: 'platform.api-key', id: pick(KEYS, i.bits(8)), label: 'SIEM import' }, 'created', {
      actor: apiKey(i),
      origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-api'),
      changes: [redacted('key')],
    }),
  (i) =>
    event(
      i,
      2,
      { kind: 'platform.user', id: pick(USERS, i.bits(9)), label: 'Carol Example' },
      'password-reset',
      {
        actor: bare('ANONYMOUS'),
        origin: origin(i, 'PLATFORM', 'REST_CONTROLLER', 'platform-auth'),
        details: { method: 'EMAIL_LINK', ipAddress: maskedIp(i) },
      },
    ),
  (i) =>
    event(i, 2, scopeOf(i.owner), 'report-generated', {
      actor: automation('SCHEDULER', 'agency-billing-report'),
      origin: origin(i, 'PLATFORM', 'SCHEDULER', 'platform-billing'),
      details: { format: 'PDF' },
    }),
  (i) =>
    event(i, 1, scopeOf(i.owner), 'renewed', {
      actor: { type: 'SYSTEM' },
      origin: origin(i, 'PLATFORM', 'SYSTEM', 'platform-billing'),
    }),
];

/** Templates of an owner kind; consecutive events cycle through them, so a few cover every case. */
export function templatesFor(owner: AuditOwner): readonly Template[] {
  return owner.kind === 'agency' ? AGENCY : PROJECT;
}
