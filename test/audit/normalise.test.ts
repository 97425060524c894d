import { isIP } from 'node:net';
import { EcsFlat, EcsVersion } from '@elastic/ecs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyEvent } from '../../src/audit/normalise/classify.js';
import { ECS_VERSION, toEcs } from '../../src/audit/normalise/ecs.js';
import { OCSF_CLASSES, toOcsf } from '../../src/audit/normalise/ocsf.js';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { SvcClient } from '../../src/client.js';
import { richEvent } from '../helpers/audit-events.js';
import { useReferenceServer } from '../helpers/server.js';

// #44 item 1: every event, seeded or random, maps to ECS fields and values the ECS field
// definitions (@elastic/ecs) allow, and to an OCSF event of a documented class with the required
// attributes of that class. Nothing is dropped: one document per event, its id kept.

const server = useReferenceServer();
const HOUR = 3600_000;
const T0 = Date.parse('2026-05-04T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const seeded: AuditEvent[] = [];

beforeAll(async () => {
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  // Every template of both owners, several times over (project events cycle through 13, agency 6).
  server().admin.addAuditEvents({
    count: 60,
    scope: 'project',
    from: iso(T0 - 3 * HOUR),
    to: iso(T0 - HOUR),
  });
  server().admin.addAuditEvents({ count: 30, scope: 'agency', from: iso(T0 - 3 * HOUR), to: iso(T0 - HOUR) });
  for (const apiKey of ['ak_demo_project', 'ak_demo_agency']) {
    const client = new SvcClient({ baseUrl: server().url, apiKey });
    for await (const event of client.audit.events({ from: iso(T0 - 4 * HOUR), to: iso(T0) }))
      seeded.push(event);
  }
  expect(seeded).toHaveLength(90);
});

type EcsField = {
  type: string;
  normalize: string[];
  allowed_values?: Array<{ name: string; expected_event_types?: string[] }>;
};
const fields = EcsFlat as unknown as Record<string, EcsField>;

/** Each leaf of a document as a dotted name and its values (arrays of objects flattened into their members). */
function leaves(value: unknown, prefix = '', out = new Map<string, unknown[]>()): Map<string, unknown[]> {
  if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null)) {
    for (const item of value) leaves(item, prefix, out);
    return out;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, member] of Object.entries(value)) leaves(member, prefix ? `${prefix}.${key}` : key, out);
    return out;
  }
  out.set(prefix, [...(out.get(prefix) ?? []), value]);
  return out;
}

/** Why an ECS value does not fit its field's type, or undefined. */
function misfit(field: EcsField, value: unknown): string | undefined {
  const values = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && !field.normalize.includes('array'))
    return 'an array in a field that is not one';
  for (const v of values) {
    switch (field.type) {
      case 'keyword':
      case 'constant_keyword':
      case 'wildcard':
      case 'match_only_text':
      case 'text':
        if (typeof v !== 'string') return `${JSON.stringify(v)} is not text`;
        break;
      case 'date':
        if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) return `${JSON.stringify(v)} is not a date`;
        break;
      case 'ip':
        if (typeof v !== 'string' || isIP(v) === 0) return `${JSON.stringify(v)} is not an IP address`;
        break;
      case 'long':
        if (!Number.isInteger(v)) return `${JSON.stringify(v)} is not a long`;
        break;
      case 'boolean':
        if (typeof v !== 'boolean') return `${JSON.stringify(v)} is not a boolean`;
        break;
      default:
        return `type ${field.type} is not one the mapping writes`;
    }
  }
  return undefined;
}

/** Problems of one ECS document: fields ECS does not define (outside `svc.*`), values of the wrong type or not allowed. */
function ecsProblems(event: AuditEvent): string[] {
  const doc = toEcs(event, { keepOriginal: true });
  const problems = documentProblems(doc);
  if (doc.event.id !== event.id) problems.push('event.id is not the event id');
  if (doc.event.original === undefined) problems.push('no event.original with keepOriginal');
  return problems;
}

/** Problems of an ECS document, whoever made it. */
function documentProblems(doc: ReturnType<typeof toEcs>): string[] {
  const problems: string[] = [];
  for (const [name, values] of leaves(doc)) {
    if (name.startsWith('svc.')) continue;
    const field = fields[name];
    if (!field) {
      problems.push(`${name} is not an ECS field`);
      continue;
    }
    for (const value of values) {
      const why = misfit(field, value);
      if (why) problems.push(`${name}: ${why}`);
    }
  }
  const allowed = (name: string) => new Set((fields[name]?.allowed_values ?? []).map((v) => v.name));
  if (!allowed('event.kind').has(doc.event.kind)) problems.push(`event.kind ${doc.event.kind}`);
  if (!allowed('event.outcome').has(doc.event.outcome)) problems.push(`event.outcome ${doc.event.outcome}`);
  for (const category of doc.event.category) {
    const spec = fields['event.category']?.allowed_values?.find((v) => v.name === category);
    if (!spec) problems.push(`event.category ${category}`);
    for (const type of doc.event.type) {
      if (!allowed('event.type').has(type)) problems.push(`event.type ${type}`);
      if (spec && !spec.expected_event_types?.includes(type))
        problems.push(`event.type ${type} with ${category}`);
    }
  }
  return problems;
}

describe('ECS: only fields, value types and categorisation values the ECS field definitions allow', () => {
  it('the documents follow the field definitions the tests read', () => {
    expect(ECS_VERSION).toBe(EcsVersion);
  });

  it('the check itself refuses what ECS does not allow', () => {
    const good = toEcs(seeded[0] as AuditEvent);
    const bad = {
      ...good,
      source: { ip: '203.0.113.*' },
      host: { unknown_field: 'x' },
      event: { ...good.event, category: ['iam'], type: ['access'], outcome: 'maybe' },
    } as unknown as ReturnType<typeof toEcs>;
    expect(documentProblems(bad)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^source\.ip: .* is not an IP address/),
        'host.unknown_field is not an ECS field',
        'event.type access with iam',
        expect.stringMatching(/^event\.outcome/),
      ]),
    );
  });

  it('every seeded event of every type, actor type and schema version', () => {
    const types = new Set(seeded.map((e) => e.type));
    expect(types.size).toBeGreaterThanOrEqual(15);
    for (const event of seeded) expect(ecsProblems(event), event.type).toEqual([]);
  });

  it('random events, as lenient as the schema lets them be (property)', () => {
    fc.assert(
      fc.property(richEvent, (event) => {
        expect(ecsProblems(event), JSON.stringify(event)).toEqual([]);
      }),
      { numRuns: 500, seed: 44 },
    );
  });

  it('a sign-in: authentication/start, its outcome, the masked address as source.ip, the person as user', () => {
    const failed = seeded.find((e) => e.type === 'platform.user.authentication-failed') as AuditEvent;
    const doc = toEcs(failed);
    expect(doc.event).toMatchObject({ category: ['authentication'], type: ['start'], outcome: 'failure' });
    expect(doc.source?.ip).toBe((failed.details as { ipAddress: string }).ipAddress);
    expect(doc.user?.id).toBe(failed.subject?.id);
    expect(doc.trace?.id).toBe(failed.origin?.traceId);
  });

  it('redacted changes stay redacted: no value, marked', () => {
    const redacting = seeded.find((e) => e.changes?.some((c) => c.isRedacted)) as AuditEvent;
    const changes = toEcs(redacting).svc.changes as Array<Record<string, unknown>>;
    const redacted = changes.filter((c) => c.redacted === true);
    expect(redacted.length).toBeGreaterThan(0);
    for (const change of redacted) expect(change).not.toHaveProperty('before');
  });
});

/** Required attributes of each class, and its activities (OCSF 1.3; base event attributes first). */
const BASE = ['activity_id', 'category_uid', 'class_uid', 'metadata', 'severity_id', 'time', 'type_uid'];
const CLASSES: Record<number, { category: number; required: string[]; activities: number[] }> = {
  3001: { category: 3, required: ['user'], activities: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99] },
  3002: { category: 3, required: ['user'], activities: [0, 1, 2, 3, 4, 5, 6, 99] },
  3004: { category: 3, required: ['entity'], activities: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 99] },
  6003: { category: 6, required: ['actor', 'api', 'src_endpoint'], activities: [0, 1, 2, 3, 4, 99] },
};

function ocsfProblems(event: AuditEvent): string[] {
  const doc = toOcsf(event, { keepOriginal: true }) as unknown as Record<string, unknown>;
  const spec = CLASSES[doc.class_uid as number];
  if (!spec) return [`class ${doc.class_uid} is not in the documented table`];
  const problems: string[] = [];
  for (const name of [...BASE, ...spec.required]) if (doc[name] === undefined) problems.push(`no ${name}`);
  if (doc.category_uid !== spec.category) problems.push(`category ${doc.category_uid}`);
  if (!spec.activities.includes(doc.activity_id as number)) problems.push(`activity ${doc.activity_id}`);
  if (doc.type_uid !== (doc.class_uid as number) * 100 + (doc.activity_id as number))
    problems.push('type_uid');
  const metadata = doc.metadata as {
    uid: string;
    version: string;
    product: { vendor_name?: string; name?: string };
  };
  if (metadata.uid !== event.id) problems.push('metadata.uid is not the event id');
  if (!/^1\.\d+\.\d+$/.test(metadata.version)) problems.push('metadata.version');
  if (!metadata.product.vendor_name || !metadata.product.name) problems.push('metadata.product');
  if (doc.time !== Date.parse(event.occurredAt)) problems.push('time');
  if (![0, 1, 2, 99].includes(doc.status_id as number)) problems.push('status_id');
  if (spec.required.includes('api') && typeof (doc.api as { operation?: unknown }).operation !== 'string')
    problems.push('api.operation');
  const ip = (doc.src_endpoint as { ip?: string } | undefined)?.ip;
  if (ip !== undefined && isIP(ip) === 0) problems.push(`src_endpoint.ip ${ip}`);
  if (typeof doc.raw_data !== 'string') problems.push('no raw_data with keepOriginal');
  return problems;
}

describe('OCSF: a class from the documented table with its required attributes, type_uid = class_uid * 100 + activity_id', () => {
  it('every seeded event, and each family in its class', () => {
    for (const event of seeded) expect(ocsfProblems(event), event.type).toEqual([]);
    const classOf = (type: string) => toOcsf(seeded.find((e) => e.type === type) as AuditEvent).class_uid;
    expect(classOf('platform.user.authenticated')).toBe(OCSF_CLASSES['sign-in']);
    expect(classOf('platform.user.password-reset')).toBe(OCSF_CLASSES.account);
    expect(classOf('captcha.captcha.updated')).toBe(OCSF_CLASSES.entity);
    expect(classOf('platform.subscription.audit-log-exported')).toBe(OCSF_CLASSES.activity);
  });

  it('random events (property)', () => {
    fc.assert(
      fc.property(richEvent, (event) => {
        expect(ocsfProblems(event), JSON.stringify(event)).toEqual([]);
      }),
      { numRuns: 500, seed: 44 },
    );
  });

  it('an unknown type falls back to API Activity, Other, status Unknown', () => {
    const event = { ...seeded[0], type: 'billing.invoice.sent', action: 'sent' } as AuditEvent;
    expect(classifyEvent(event).known).toBe(false);
    expect(toOcsf(event)).toMatchObject({ class_uid: 6003, activity_id: 99, status_id: 0 });
    expect(toEcs(event).event).toMatchObject({ category: ['api'], type: ['info'], outcome: 'unknown' });
  });
});
