import fc from 'fast-check';
import type { AuditEvent } from '../../src/audit/schemas.js';

// Random audit events for property tests: every part a reader looks at, with strings of any
// case, quotes, backslashes and non-ASCII, and (in the rich form) values of every shape where
// the reference shows a string.

/** Random events: every part a qualifier reads, with strings of any case, quotes, backslashes and non-ASCII. */
export const textArb = fc.oneof(
  fc.constantFrom(
    'Demo project',
    'usr_alice',
    'API_KEY',
    'captcha.captcha.updated',
    'K',
    '\u212aey',
    'ß',
    'İ',
    'a"b',
    'c\\d',
    'ke\u0130',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
export const randomEvent = fc.record({
  id: fc.uuid(),
  schemaVersion: fc.constantFrom(1, 2),
  occurredAt: fc
    .date({
      min: new Date('2026-01-01T00:00:00Z'),
      max: new Date('2026-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  type: textArb,
  action: fc.option(textArb, { nil: undefined }),
  actor: fc.oneof(
    fc.record({ type: fc.constant('USER'), userId: textArb }),
    fc.record({ type: fc.constant('API_KEY'), apiKeyId: textArb }),
    fc.record({
      type: fc.constant('AUTOMATION'),
      automation: fc.record({ kind: fc.constant('SCHEDULER'), name: textArb }),
    }),
    fc.record({ type: fc.constantFrom('ANONYMOUS', 'SYSTEM') }),
  ),
  subject: fc.option(fc.record({ kind: textArb, id: textArb, label: fc.option(textArb, { nil: null }) }), {
    nil: undefined,
  }),
  scopes: fc.array(fc.record({ kind: textArb, id: textArb, label: textArb }), { maxLength: 2 }),
  changes: fc.array(fc.record({ field: textArb, operation: fc.constant('SET') }), { maxLength: 2 }),
  details: fc.option(fc.record({ ipAddress: textArb }), { nil: undefined }),
  origin: fc.option(fc.record({ namespace: textArb, traceId: textArb }), { nil: undefined }),
}) as fc.Arbitrary<AuditEvent>;

/** Any JSON value, small. */
const jsonValue = fc.jsonValue({ maxDepth: 2 });

/** Known types and actions of the reference, kinds of subject, and IP-like strings, mixed with random ones. */
const typeArb = fc.oneof(
  fc.constantFrom(
    'platform.user.authenticated',
    'platform.user.authentication-failed',
    'platform.user.password-reset',
    'platform.organization-member.added',
    'platform.api-key.created',
    'captcha.captcha.updated',
    'taxvalidation.schedule.executed',
    'platform.subscription.audit-log-exported',
    'platform.subscription.renewed',
    'something.new.happened',
  ),
  textArb,
);
const actionArb = fc.constantFrom(
  'authenticated',
  'authentication-failed',
  'password-reset',
  'added',
  'created',
  'deleted',
  'updated',
  'report-generated',
  'quota-reached',
  'brand-new',
);
const kindArb = fc.oneof(
  fc.constantFrom('platform.user', 'platform.organization-member', 'platform.api-key', 'captcha.captcha'),
  textArb,
);
const ipArb = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom('203.0.113.0', '2001:db8::', '203.0.113.*', '', '::ffff:1.2.3.4'),
  textArb,
);

/** Events as lenient as the schema lets them be: unknown actor types, any JSON in changes and details. */
export const richEvent = fc.record({
  id: fc.uuid(),
  schemaVersion: fc.constantFrom(1, 2, 3),
  occurredAt: fc
    .date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date('2030-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  type: typeArb,
  action: fc.option(fc.oneof(actionArb, textArb), { nil: undefined }),
  actor: fc.oneof(
    fc.record({ type: fc.constant('USER'), userId: textArb }),
    fc.record({ type: fc.constant('API_KEY'), apiKeyId: textArb }),
    fc.record({
      type: fc.constant('AUTOMATION'),
      automation: fc.record({
        kind: fc.constantFrom('SCHEDULER', 'RUNNER', 'LISTENER', 'NEW'),
        name: textArb,
      }),
    }),
    fc.record({ type: fc.constantFrom('ANONYMOUS', 'SYSTEM', 'ROBOT') }),
    fc.record({ type: textArb, userId: jsonValue }),
  ),
  subject: fc.option(fc.record({ kind: kindArb, id: textArb, label: fc.option(textArb, { nil: null }) }), {
    nil: undefined,
  }),
  scopes: fc.option(fc.array(fc.record({ kind: kindArb, id: textArb, label: textArb }), { maxLength: 2 }), {
    nil: undefined,
  }),
  changes: fc.option(
    fc.array(
      fc.oneof(
        fc.record({ field: textArb, operation: fc.constant('SET'), before: jsonValue, after: jsonValue }),
        fc.record({ field: textArb, operation: fc.constant('SET'), isRedacted: fc.constant(true) }),
      ),
      { maxLength: 3 },
    ),
    { nil: null },
  ),
  details: fc.option(
    fc.oneof(
      fc.record({ signInMethod: fc.constantFrom('PASSWORD', 'SSO'), ipAddress: ipArb }),
      fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 3 }),
    ),
    { nil: null },
  ),
  origin: fc.option(
    fc.record({
      namespace: textArb,
      source: textArb,
      applicationName: textArb,
      traceId: textArb,
      transactionId: textArb,
    }),
    { nil: null },
  ),
}) as fc.Arbitrary<AuditEvent>;
