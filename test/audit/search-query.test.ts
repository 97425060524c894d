import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { matchesAuditQuery, membersRead } from '../../src/audit/search/match.js';
import { parseAuditQuery } from '../../src/audit/search/query.js';
import { SvcClient } from '../../src/client.js';
import { SvcError } from '../../src/core/errors/index.js';
import { prefilter } from '../../src/node/audit-search/prefilter.js';
import { randomEvent } from '../helpers/audit-events.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange } from './helpers.js';

// The audit search language (#43 item 1): each documented rule against events the reference
// server generates (every event type, both schema versions, all actor types, sign-ins with masked
// IPs), and a property test against a direct filter written apart from the matcher.

const server = useReferenceServer();
const events: AuditEvent[] = [];
let client: SvcClient;

beforeAll(async () => {
  const range = pastRange(server().admin.now());
  server().admin.addAuditEvents({ count: 400, ...range });
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  for await (const event of client.audit.events(range)) events.push(event);
});
afterAll(() => client?.close());

const search = (text: string) => {
  const query = parseAuditQuery(text);
  return events.filter((e) => matchesAuditQuery(query, e));
};
const ids = (list: AuditEvent[]) => list.map((e) => e.id);
const pick = <T>(list: T[], what: string): T => {
  const found = list[0];
  if (found === undefined) throw new Error(`the seeded events hold no ${what}`);
  return found;
};
const lower = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : undefined);

describe('the seeded events cover what the qualifiers read', () => {
  it('every actor type, both schema versions, changes, scopes and sign-in IPs', () => {
    const types = new Set(events.map((e) => e.actor.type));
    expect([...types].sort()).toEqual(['ANONYMOUS', 'API_KEY', 'AUTOMATION', 'SYSTEM', 'USER']);
    expect(new Set(events.map((e) => e.schemaVersion))).toEqual(new Set([1, 2]));
    expect(events.some((e) => (e.changes ?? []).length > 0)).toBe(true);
    expect(events.some((e) => typeof e.details?.ipAddress === 'string')).toBe(true);
  });
});

describe('terms side by side must all match; OR starts another group', () => {
  it('type:A actor.type:USER is the intersection', () => {
    const type = pick(events, 'event').type;
    expect(ids(search(`type:${type} actor.type:USER`))).toEqual(
      ids(events.filter((e) => e.type === type && e.actor.type === 'USER')),
    );
  });
  it('a b OR c is (a and b) or c', () => {
    const [a, c] = [...new Set(events.map((e) => e.type))] as [string, string];
    expect(ids(search(`type:${a} actor.type:USER OR type:${c}`))).toEqual(
      ids(events.filter((e) => (e.type === a && e.actor.type === 'USER') || e.type === c)),
    );
  });
  it('the empty query matches every event', () => {
    expect(search('  ')).toHaveLength(events.length);
  });
});

describe('a leading - negates a term, and holds where the event has no such part', () => {
  it('-actor.type:USER', () => {
    expect(ids(search('-actor.type:USER'))).toEqual(ids(events.filter((e) => e.actor.type !== 'USER')));
  });
  it('-field:* is the events without changes', () => {
    expect(ids(search('-field:*'))).toEqual(ids(events.filter((e) => (e.changes ?? []).length === 0)));
  });
});

describe('a trailing * matches a prefix, * alone any value; case does not matter', () => {
  it('type:PLATFORM.USER.* and type:platform.user.* are the same prefix', () => {
    const expected = ids(events.filter((e) => e.type.startsWith('platform.user.')));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(search('type:PLATFORM.USER.*'))).toEqual(expected);
    expect(ids(search('type:platform.user.*'))).toEqual(expected);
  });
  it('ip:* is every event with a masked IP', () => {
    expect(ids(search('ip:*'))).toEqual(ids(events.filter((e) => typeof e.details?.ipAddress === 'string')));
  });
  it('a quoted value keeps its spaces and its * as a character', () => {
    const labelled = pick(
      events.filter((e) => e.subject?.label?.includes(' ')),
      'subject label with a space',
    );
    const label = labelled.subject?.label as string;
    expect(ids(search(`subject:"${label}"`))).toEqual(
      ids(events.filter((e) => lower(e.subject?.label) === label.toLowerCase())),
    );
    expect(search('subject:"*"')).toEqual([]);
  });
});

describe('each qualifier reads the part of the event it names', () => {
  it('actor: is a userId, apiKeyId or automation name', () => {
    const key = pick(
      events.filter((e) => e.actor.type === 'API_KEY'),
      'API key actor',
    );
    const keyId = (key.actor as { apiKeyId: string }).apiKeyId;
    expect(ids(search(`actor:${keyId}`))).toEqual(
      ids(events.filter((e) => (e.actor as { apiKeyId?: string }).apiKeyId === keyId)),
    );
    const job = pick(
      events.filter((e) => e.actor.type === 'AUTOMATION'),
      'automation actor',
    );
    const name = (job.actor as { automation: { name: string } }).automation.name;
    expect(search(`actor:"${name}"`).length).toBeGreaterThan(0);
  });
  it('scope: is a kind, id or label of any scope; subject: of the subject', () => {
    expect(ids(search('scope:platform.subscription'))).toEqual(
      ids(events.filter((e) => (e.scopes ?? []).some((s) => s.kind === 'platform.subscription'))),
    );
    const subject = pick(
      events.filter((e) => e.subject),
      'subject',
    );
    expect(ids(search(`subject:${subject.subject?.id}`))).toEqual(
      ids(events.filter((e) => e.subject?.id === subject.subject?.id)),
    );
  });
  it('field: is the field of any change, ip: the masked IP, origin.<member>: that member', () => {
    const changed = pick(
      events.filter((e) => (e.changes ?? []).length > 0),
      'change',
    );
    const field = changed.changes?.[0]?.field as string;
    expect(ids(search(`field:${field}`))).toEqual(
      ids(events.filter((e) => (e.changes ?? []).some((c) => c.field === field))),
    );
    const signIn = pick(
      events.filter((e) => typeof e.details?.ipAddress === 'string'),
      'sign-in',
    );
    const ip = signIn.details?.ipAddress as string;
    expect(ids(search(`ip:${ip}`))).toEqual(ids(events.filter((e) => e.details?.ipAddress === ip)));
    expect(ids(search('origin.namespace:captcha'))).toEqual(
      ids(events.filter((e) => lower(e.origin?.namespace) === 'captcha')),
    );
  });
});

describe('occurred: takes comparisons, a day, a month, an instant and ranges (UTC)', () => {
  const at = (e: AuditEvent) => Date.parse(e.occurredAt);
  it('>=, >, <=, < on a day, and a day alone', () => {
    const day = pick(events, 'event').occurredAt.slice(0, 10);
    const start = Date.parse(`${day}T00:00:00.000Z`);
    const end = start + 86_400_000;
    expect(ids(search(`occurred:>=${day}`))).toEqual(ids(events.filter((e) => at(e) >= start)));
    expect(ids(search(`occurred:>${day}`))).toEqual(ids(events.filter((e) => at(e) >= end)));
    expect(ids(search(`occurred:<=${day}`))).toEqual(ids(events.filter((e) => at(e) < end)));
    expect(ids(search(`occurred:<${day}`))).toEqual(ids(events.filter((e) => at(e) < start)));
    expect(ids(search(`occurred:${day}`))).toEqual(ids(events.filter((e) => at(e) >= start && at(e) < end)));
  });
  it('a..b includes both ends; * leaves one open; an instant is its millisecond', () => {
    const sorted = [...events].sort((a, b) => at(a) - at(b));
    const first = (sorted[10] as AuditEvent).occurredAt;
    const last = (sorted[30] as AuditEvent).occurredAt;
    expect(ids(search(`occurred:${first}..${last}`))).toEqual(
      ids(events.filter((e) => at(e) >= Date.parse(first) && at(e) <= Date.parse(last))),
    );
    expect(ids(search(`occurred:*..${first}`))).toEqual(
      ids(events.filter((e) => at(e) <= Date.parse(first))),
    );
    expect(ids(search(`occurred:${first}`))).toEqual(ids(events.filter((e) => e.occurredAt === first)));
  });
  it('a month', () => {
    const month = pick(events, 'event').occurredAt.slice(0, 7);
    expect(ids(search(`occurred:${month}`))).toEqual(
      ids(events.filter((e) => e.occurredAt.startsWith(month))),
    );
  });
});

describe('a query that cannot be read is one line naming the term: SvcError code query', () => {
  it.each([
    ['captcha', /"captcha" has no qualifier: write it as one of id: type: action: /],
    ['colour:red', /unknown qualifier colour:/],
    ['origin.:x', /unknown qualifier origin.:/],
    ['occurred:yesterday', /occurred: "yesterday" is not a time/],
    ['occurred:2026-02-30', /2026-02-30 is not a date/],
    ['occurred:2026-11-02..2026-11-01', /ends before it starts/],
    ['occurred:', /needs a time or a range/],
    ['type:', /type: needs a value/],
    ['type:>=a', /takes a value, not a comparison/],
    ['type:a*b', /a \* may only end a value/],
    ['subject:"open', /a quote is not closed/],
    ['OR type:a', /OR needs a term on each side/],
    ['type:a OR OR type:b', /OR needs a term on each side/],
  ])('%s', (query, message) => {
    let error: unknown;
    try {
      parseAuditQuery(query);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('query');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

/** The qualifiers the property tests draw from (the oracle below reads each itself). */
const qualifiers = [
  'id',
  'type',
  'action',
  'actor',
  'actor.type',
  'subject',
  'scope',
  'field',
  'ip',
  'origin.namespace',
];

/** The oracle: each qualifier's values read straight off the event's JSON, compared in lower case. */
function directValues(e: AuditEvent, qualifier: string): string[] {
  const json = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
  const strings = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string');
  const resource = (r: { kind?: unknown; id?: unknown; label?: unknown } | undefined) =>
    r ? strings(r.kind, r.id, r.label) : [];
  const actor = json.actor as Record<string, unknown>;
  const table: Record<string, string[]> = {
    id: strings(json.id),
    type: strings(json.type),
    action: strings(json.action),
    actor: strings(actor?.userId, actor?.apiKeyId, (actor?.automation as { name?: unknown } | null)?.name),
    'actor.type': strings(actor?.type),
    subject: resource(json.subject as never),
    scope: ((json.scopes ?? []) as never[]).flatMap(resource),
    field: strings(...((json.changes ?? []) as { field?: unknown }[]).map((c) => c.field)),
    ip: strings((json.details as { ipAddress?: unknown } | null)?.ipAddress),
    'origin.namespace': strings((json.origin as { namespace?: unknown } | null)?.namespace),
  };
  return (table[qualifier] ?? []).map((v) => v.toLowerCase());
}

describe('a random query over the seeded events equals the direct filter (property)', () => {
  it('random terms of every qualifier, negations, prefixes and OR groups', () => {
    const seenValues = (q: string) =>
      fc.constantFrom(...new Set(events.flatMap((e) => directValues(e, q))), 'no-such-value');
    const termArb = fc.constantFrom(...qualifiers).chain((q) =>
      fc.record({
        q: fc.constant(q),
        value: seenValues(q),
        negated: fc.boolean(),
        prefix: fc.nat({ max: 3 }),
        present: fc.boolean(),
      }),
    );
    const queryArb = fc.array(fc.array(termArb, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 3,
    });
    fc.assert(
      fc.property(queryArb, (groups) => {
        const cut = (t: { value: string; prefix: number }) =>
          t.prefix > 0 ? t.value.slice(0, Math.max(1, t.value.length - t.prefix)) : t.value;
        const text = groups
          .map((g) =>
            g
              .map(
                (t) =>
                  `${t.negated ? '-' : ''}${t.q}:${t.present ? '*' : `"${cut(t)}"${t.prefix > 0 ? '*' : ''}`}`,
              )
              .join(' '),
          )
          .join(' OR ');
        const direct = events.filter((e) =>
          groups.some((g) =>
            g.every((t) => {
              const values = directValues(e, t.q);
              const hit = t.present
                ? values.length > 0
                : t.prefix > 0
                  ? values.some((v) => v.startsWith(cut(t)))
                  : values.includes(t.value);
              return hit !== t.negated;
            }),
          ),
        );
        expect(ids(search(text))).toEqual(ids(direct));
      }),
      { numRuns: 300 },
    );
  });
});

describe('random events and random qualifier combinations agree with the direct filter (property)', () => {
  const cases = fc.array(randomEvent, { minLength: 1, maxLength: 12 }).chain((list) => {
    const seen = (q: string) => list.flatMap((e) => directValues(e, q));
    const value = (q: string) =>
      fc.oneof(
        seen(q).length > 0 ? fc.constantFrom(...seen(q)) : fc.constant('x'),
        fc.string({ maxLength: 4 }),
      );
    const termArb = fc.constantFrom(...qualifiers).chain((q) =>
      fc.record({
        q: fc.constant(q),
        value: value(q),
        negated: fc.boolean(),
        prefix: fc.boolean(),
        upper: fc.boolean(),
      }),
    );
    return fc.record({
      events: fc.constant(list),
      groups: fc.array(fc.array(termArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
    });
  });
  const quoted = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  it('the matcher equals the direct filter; the line prefilter never rules out a match', () => {
    fc.assert(
      fc.property(cases, ({ events: list, groups }) => {
        const usable = groups.map((g) => g.filter((t) => t.value !== '' || t.prefix));
        fc.pre(usable.every((g) => g.length > 0));
        const text = usable
          .map((g) =>
            g
              .map((t) => {
                const v = t.upper ? t.value.toUpperCase() : t.value;
                return `${t.negated ? '-' : ''}${t.q}:${quoted(t.prefix ? v.slice(0, 2) : v)}${t.prefix ? '*' : ''}`;
              })
              .join(' '),
          )
          .join(' OR ');
        const query = parseAuditQuery(text);
        // The events as one block of lines, asked about in order as the search asks.
        const lines = list.map((e) => Buffer.from(JSON.stringify(e)));
        const look = prefilter(query)?.(Buffer.from(lines.map(String).join('\n')));
        let start = 0;
        for (const [i, e] of list.entries()) {
          const end = start + (lines[i] as Buffer).length;
          const ruledOut = look ? !look(start, end) : false;
          start = end + 1;
          const direct = usable.some((g) =>
            g.every((t) => {
              const v = (t.upper ? t.value.toUpperCase() : t.value).toLowerCase();
              const values = directValues(e, t.q);
              const hit = t.prefix ? values.some((x) => x.startsWith(v.slice(0, 2))) : values.includes(v);
              return hit !== t.negated;
            }),
          );
          expect(matchesAuditQuery(query, e), text).toBe(direct);
          if (ruledOut) expect(direct, `ruled out: ${text}`).toBe(false);
        }
      }),
      { numRuns: 500, seed: 431 },
    );
  });
});

describe('a query reads only the members membersRead names (a search parses no others)', () => {
  it('an event cut down to those members matches exactly as the whole event (property)', () => {
    const qualifierArb = fc.constantFrom(...qualifiers, 'origin.source', 'occurred');
    const termArb = fc.record({
      q: qualifierArb,
      negated: fc.boolean(),
      value: fc.constantFrom('*', 'API_KEY', 'usr_*', 'demo', 'captcha.*', 'plan', '2026-11'),
    });
    const queryArb = fc.array(fc.array(termArb, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 2,
    });
    fc.assert(
      fc.property(fc.array(randomEvent, { minLength: 1, maxLength: 6 }), queryArb, (list, groups) => {
        const text = groups
          .map((g) =>
            g
              .map((t) => {
                const value =
                  t.q === 'occurred' ? (t.value === '2026-11' ? t.value : '>=2026-01-01') : t.value;
                return `${t.negated ? '-' : ''}${t.q}:${value}`;
              })
              .join(' '),
          )
          .join(' OR ');
        const query = parseAuditQuery(text);
        const members = membersRead(query);
        for (const event of list) {
          const cut = Object.fromEntries(
            members
              .filter((m) => Object.hasOwn(event, m))
              .map((m) => [m, (event as Record<string, unknown>)[m]]),
          );
          expect(matchesAuditQuery(query, cut as unknown as AuditEvent), text).toBe(
            matchesAuditQuery(query, event),
          );
        }
      }),
      { numRuns: 400 },
    );
  });

  it('names the member of each qualifier', () => {
    expect(
      membersRead(parseAuditQuery('actor.type:USER actor:x OR scope:a field:b ip:c origin.namespace:d')),
    ).toEqual(['actor', 'scopes', 'changes', 'details', 'origin']);
    expect(membersRead(parseAuditQuery('id:a type:b action:c subject:d occurred:2026-11'))).toEqual([
      'id',
      'type',
      'action',
      'subject',
      'occurredAt',
    ]);
  });
});

describe('the line prefilter rules out only lines that cannot match', () => {
  const line = (event: object) => Buffer.from(JSON.stringify(event));
  /** Whether the prefilter rules out the one line of `bytes`. */
  const cannotMatch = (text: string, bytes: Buffer) => {
    const look = prefilter(parseAuditQuery(text))?.(bytes);
    return look ? !look(0, bytes.length) : false;
  };
  it('values outside ASCII that lower-case into ASCII (U+212A, U+0130), escapes, and case', () => {
    const cases: Array<[string, object]> = [
      ['actor:key', { actor: { type: 'USER', userId: '\u212aey' } }],
      ['actor.type:i*', { actor: { type: '\u0130' } }],
      ['type:ab', { type: 'A\u0042' }],
      ['type:"a\\"b"', { type: 'a"b' }],
      ['type:platform.user.*', { type: 'PLATFORM.User.authenticated' }],
    ];
    for (const [text, event] of cases) {
      const query = parseAuditQuery(text);
      expect(matchesAuditQuery(query, event as AuditEvent), text).toBe(true);
      expect(cannotMatch(text, line(event)), text).toBe(false);
    }
    // An escaped value in the line (as another JSON writer may write it) is never ruled out.
    expect(cannotMatch('type:ab', Buffer.from('{"type":"\\u0061b"}'))).toBe(false);
    // And a line without the text is.
    expect(cannotMatch('type:ab', line({ type: 'cd' }))).toBe(true);
  });

  it('in a block of lines each line is judged by its own bytes, asked in order', () => {
    const lines = [
      '{"type":"cd"}',
      '{"type":"x\\u0061b"}',
      '{"type":"ef"}',
      '{"type":"AB"}',
      '{"type":"gh"}',
    ];
    const block = Buffer.from(lines.join('\n'));
    const look = prefilter(parseAuditQuery('type:ab'));
    expect(look).toBeDefined();
    const mayMatch = look?.(block);
    let start = 0;
    const verdicts = lines.map((text) => {
      const end = start + text.length;
      const verdict = mayMatch?.(start, end);
      start = end + 1;
      return verdict;
    });
    // The escape only keeps its own line; the value only its own line, though found from the lines before.
    expect(verdicts).toEqual([false, true, false, true, false]);
  });
});
