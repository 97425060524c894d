import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/server/index.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';
import { DAY, getEvents, HOUR, isNewestFirst, pastRange, readAll, type WireEvent } from './helpers.js';

const server = useReferenceServer();
const now = () => server().admin.now();

afterEach(() => {
  // Tests that move the clock put it back, so later ranges are computed from wall time again.
  server().admin.setNow(Date.now());
});

function add(count: number, range: { from: string; to: string }, scope: 'project' | 'agency' = 'project') {
  return server().admin.addAuditEvents({ count, scope, ...range });
}

describe('Events are sorted newest first (occurredAt desc, then id desc)', () => {
  it('orders generated events, many of which share one occurredAt', async () => {
    const range = pastRange(now());
    add(600, range);
    const { events } = await readAll(server().url, { ...range, pageSize: 1000 });
    expect(events).toHaveLength(600);
    expect(isNewestFirst(events)).toBe(true);
    expect(new Set(events.map((e) => e.occurredAt)).size).toBeLessThan(events.length / 2);
  });

  it('merges explicit and generated events that share a timestamp by id desc', async () => {
    const range = pastRange(now());
    const added = add(50, range);
    const at = added.to;
    server().admin.addAuditEvents({
      events: [
        { id: '00000000-first', schemaVersion: 2, occurredAt: at, type: 'x.y.z', actor: { type: 'SYSTEM' } },
        { id: 'ffffffff-last', schemaVersion: 2, occurredAt: at, type: 'x.y.z', actor: { type: 'SYSTEM' } },
      ],
    });
    const { events } = await readAll(server().url, { ...range, pageSize: 7 });
    expect(events).toHaveLength(52);
    expect(isNewestFirst(events)).toBe(true);
    expect(events[0]?.id).toBe('ffffffff-last');
    const sameTime = events.filter((e) => e.occurredAt === at);
    expect(sameTime.at(-1)?.id).toBe('00000000-first');
  });
});

describe('Next page: pass nextCursor with the same from and to until nextCursor is null', () => {
  it('reads every event exactly once, across page boundaries inside runs of equal timestamps', async () => {
    const range = pastRange(now());
    add(1000, range);
    const whole = await readAll(server().url, { ...range, pageSize: 1000 });
    const paged = await readAll(server().url, { ...range, pageSize: 100 });
    expect(paged.pages).toHaveLength(10);
    expect(paged.pages.map((p) => p.page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(paged.pages.at(-1)?.nextCursor).toBeNull();
    expect(paged.events.map((e) => e.id)).toEqual(whole.events.map((e) => e.id));
    expect(new Set(paged.events.map((e) => e.id)).size).toBe(1000);
    const splitTies = paged.pages
      .slice(1)
      .filter((p, i) => p.content[0]?.occurredAt === paged.pages[i]?.content.at(-1)?.occurredAt);
    expect(splitTies.length).toBeGreaterThan(0);
  });

  it('gives no empty trailing page when the range divides evenly', async () => {
    const range = pastRange(now());
    add(300, range);
    const { pages } = await readAll(server().url, { ...range, pageSize: 100 });
    expect(pages.map((p) => p.content.length)).toEqual([100, 100, 100]);
  });

  it('ignores page when a cursor is set, and keeps the range of the cursor when from and to are omitted', async () => {
    const range = pastRange(now());
    add(250, range);
    const first = await getEvents(server().url, { ...range, pageSize: 100 });
    const cursor = first.body.nextCursor as string;
    const plain = await getEvents(server().url, { ...range, pageSize: 100, cursor });
    const withPage = await getEvents(server().url, { ...range, pageSize: 100, cursor, page: 7 });
    const noRange = await getEvents(server().url, { pageSize: 100, cursor });
    expect(withPage.body.content).toEqual(plain.body.content);
    expect(noRange.body.content).toEqual(plain.body.content);
    expect(noRange.body.from).toBe(first.body.from);
    expect(plain.body.page).toBe(1);
  });

  it('refuses a cursor sent with another range (422)', async () => {
    const range = pastRange(now());
    add(150, range);
    const first = await getEvents(server().url, { ...range, pageSize: 100 });
    const other = new Date(Date.parse(range.from) - HOUR).toISOString();
    const res = await getEvents(server().url, {
      from: other,
      to: range.to,
      cursor: first.body.nextCursor as string,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/another range/);
  });
});

describe('A cursor does not shift when new events arrive during reading; page can shift', () => {
  it('continues a cursor over the events as they were at the first page', async () => {
    const range = pastRange(now());
    add(500, range);
    const before = await readAll(server().url, { ...range, pageSize: 1000 });
    const first = await getEvents(server().url, { ...range, pageSize: 100 });
    const pageOneBefore = await getEvents(server().url, { ...range, pageSize: 100, page: 1 });
    // New events at the newest end and in the middle of the range.
    add(40, { from: new Date(Date.parse(range.to) - HOUR).toISOString(), to: range.to });
    add(40, {
      from: new Date(Date.parse(range.from) + 6 * HOUR).toISOString(),
      to: new Date(Date.parse(range.from) + 7 * HOUR).toISOString(),
    });
    const rest: WireEvent[] = [];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const res = await getEvents(server().url, { ...range, pageSize: 100, cursor });
      expect(res.body.totalElements).toBe(500);
      rest.push(...res.body.content);
      cursor = res.body.nextCursor;
    }
    expect([...first.body.content, ...rest].map((e) => e.id)).toEqual(before.events.map((e) => e.id));
    const pageOneAfter = await getEvents(server().url, { ...range, pageSize: 100, page: 1 });
    expect(pageOneAfter.body.totalElements).toBe(580);
    expect(pageOneAfter.body.content[0]?.id).not.toBe(pageOneBefore.body.content[0]?.id);
  });
});

describe('Events older than the audit retention of the plan are not returned (demo plan: 90 days)', () => {
  it('drops events past 90 days, also as the clock moves on', async () => {
    const t = now();
    add(10, { from: new Date(t - 101 * DAY).toISOString(), to: new Date(t - 100 * DAY).toISOString() });
    add(7, { from: new Date(t - 81 * DAY).toISOString(), to: new Date(t - 80 * DAY).toISOString() });
    const range = { from: new Date(t - 120 * DAY).toISOString(), to: new Date(t - 70 * DAY).toISOString() };
    const res = await getEvents(server().url, range);
    expect(res.body.totalElements).toBe(7);
    expect(res.body.content.every((e) => Date.parse(e.occurredAt) >= t - 90 * DAY)).toBe(true);
    server().admin.advanceClock(15 * DAY);
    const later = await getEvents(server().url, range);
    expect(later.body.totalElements).toBe(0);
    expect(later.body.content).toEqual([]);
  });
});

describe('A project key returns the project and all its modules; an agency key only the agency itself', () => {
  it('keeps project, module, agency and other projects apart', async () => {
    const range = pastRange(now());
    add(60, range, 'project');
    add(20, range, 'agency');
    server().admin.addAuditEvents({ count: 5, scope: 'project', ownerId: 'another-project', ...range });
    const project = await readAll(server().url, range, 'ak_demo_project');
    expect(project.events).toHaveLength(60);
    for (const event of project.events) {
      const scopes = event.scopes as Array<{ kind: string; id: string }>;
      expect(scopes[0]).toMatchObject({ kind: 'platform.subscription', id: 'demo' });
      expect(scopes.some((s) => s.kind === 'platform.organization')).toBe(false);
    }
    expect(project.events.some((e) => (e.scopes as unknown[]).length > 1)).toBe(true);
    expect(project.events.some((e) => (e.type as string).startsWith('captcha.'))).toBe(true);
    const agency = await readAll(server().url, range, 'ak_demo_agency');
    expect(agency.events).toHaveLength(20);
    for (const event of agency.events) {
      expect(event.scopes).toEqual([
        { kind: 'platform.organization', id: 'demo-agency', label: 'Demo agency' },
      ]);
    }
    const ids = new Set(project.events.map((e) => e.id));
    expect(agency.events.some((e) => ids.has(e.id))).toBe(false);
    const test = await readAll(server().url, range, `ak_${'x'.repeat(49)}`);
    expect(test.events).toEqual([]);
  });
});

describe('Defaults: to is now, from is 24 hours before to, pageSize is 100, page is 0', () => {
  it('applies every default', async () => {
    add(250, { from: new Date(now() - 23 * HOUR).toISOString(), to: new Date(now()).toISOString() });
    add(30, {
      from: new Date(now() - 30 * HOUR).toISOString(),
      to: new Date(now() - 25 * HOUR).toISOString(),
    });
    const res = await getEvents(server().url, {});
    expect(res.status).toBe(200);
    expect(Math.abs(Date.parse(res.body.to) - now())).toBeLessThan(5000);
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(DAY);
    expect(res.body).toMatchObject({ page: 0, pageSize: 100, totalElements: 250 });
    expect(res.body.content).toHaveLength(100);
  });

  it('derives from from a given to, and to from the clock when only from is given', async () => {
    const to = new Date(now() - 3 * DAY).toISOString();
    const onlyTo = await getEvents(server().url, { to });
    expect(Date.parse(onlyTo.body.from)).toBe(Date.parse(to) - DAY);
    const from = new Date(now() - 3 * DAY).toISOString();
    const onlyFrom = await getEvents(server().url, { from });
    expect(onlyFrom.body.from).toBe(from);
    expect(Math.abs(Date.parse(onlyFrom.body.to) - now())).toBeLessThan(5000);
  });
});

describe('pageSize is at most 1000: larger values are refused with 422, like 0', () => {
  it('serves 1000 and refuses values above 1000, below 1 or not whole numbers', async () => {
    const range = pastRange(now());
    add(1500, range);
    const max = await getEvents(server().url, { ...range, pageSize: 1000 });
    expect(max.body.pageSize).toBe(1000);
    expect(max.body.content).toHaveLength(1000);
    expect(max.body.nextCursor).not.toBeNull();
    for (const bad of ['1001', '5000', '0', '-1', 'abc', '1.5']) {
      const res = await getEvents(server().url, { ...range, pageSize: bad });
      expect(res.status, bad).toBe(422);
    }
    expect((await getEvents(server().url, { ...range, page: '-1' })).status).toBe(422);
  });
});

describe('422: from or to is not an ISO 8601 timestamp, from lies after to, or cursor was not returned by this API', () => {
  it('refuses timestamps that are not ISO 8601 with a zone', async () => {
    for (const from of ['yesterday', '2026-01-01', '2026-01-01T00:00:00', '2026-02-30T00:00:00Z', '']) {
      const res = await getEvents(server().url, { from });
      expect(res.status, from).toBe(422);
      expect(res.body.detail).toBe('from is not an ISO 8601 timestamp');
    }
    expect((await getEvents(server().url, { to: 'soon' })).status).toBe(422);
  });

  it('refuses from after to', async () => {
    const res = await getEvents(server().url, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe('from lies after to');
  });

  it('refuses tampered, foreign and invented cursors', async () => {
    const range = pastRange(now());
    add(150, range);
    add(150, range, 'agency');
    const cursor = (await getEvents(server().url, { ...range })).body.nextCursor as string;
    const [body, sig] = cursor.split('.') as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const agencyCursor = (await getEvents(server().url, { ...range }, 'ak_demo_agency')).body
      .nextCursor as string;
    const other = await createReferenceServer();
    try {
      other.admin.addAuditEvents({ count: 150, ...range });
      const foreign = (await getEvents(other.url, { ...range })).body.nextCursor as string;
      for (const bad of [
        `${flip(body, 10)}.${sig}`,
        `${body}.${flip(sig, 3)}`,
        foreign,
        agencyCursor,
        'not-a-cursor',
        '',
      ]) {
        const res = await getEvents(server().url, { ...range, cursor: bad });
        expect(res.status, bad).toBe(422);
        expect(res.body.detail).toBe('cursor was not returned by this API');
      }
    } finally {
      await other.close();
    }
  });
});

describe('422 bodies name each failing query parameter as errors [{path, message}]', () => {
  it.each([
    [{ from: 'yesterday' }, 'from', 'from is not an ISO 8601 timestamp'],
    [{ to: '2026-01-01' }, 'to', 'to is not an ISO 8601 timestamp'],
    [{ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'from', 'from lies after to'],
    [{ from: '2999-01-01T00:00:00Z' }, 'from', 'from lies after to'],
    [{ cursor: 'forged.cursor' }, 'cursor', 'cursor was not returned by this API'],
    [{ pageSize: 'ten' }, 'pageSize', 'pageSize is invalid'],
    [{ page: '1.5' }, 'page', 'page is invalid'],
  ])('%j gives 422 with errors at %s', async (query, path, detail) => {
    const res = await getEvents(server().url, query);
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(detail);
    expect(res.body.errors?.map((e) => e.path)).toContain(path);
  });

  it('does not read page when a cursor is set, and ignores unknown parameters', async () => {
    const range = pastRange(now());
    add(150, range);
    const first = await getEvents(server().url, { ...range, unknown: 'x' });
    expect(first.status).toBe(200);
    const next = await getEvents(server().url, {
      ...range,
      cursor: first.body.nextCursor as string,
      page: 'x',
    });
    expect(next.status).toBe(200);
    expect(next.body.content).toHaveLength(50);
  });
});

describe('401 without a key, 402 when the plan lacks the audit log or the project is locked, 403 for an unknown or expired key', () => {
  it.each([
    [null, 401, /API key missing/],
    ['ak_basic_project', 402, /plan does not include the audit log/],
    ['ak_locked_project', 402, /locked/],
    ['ak_expired_key', 403, /expired/],
    ['ak_unknown_key', 403, /invalid/],
    ['demo-captcha-secret', 403, /invalid/],
  ])('key %s gives %i', async (key, status, detail) => {
    const res = await getEvents(server().url, {}, key);
    expect(res.status).toBe(status);
    expect(res.body.detail).toMatch(detail);
  });
});

describe('Admin: POST /__admin/audit-events generates events deterministically or stores them as given', () => {
  it('generates the same events after a reset, covering both schema versions, every actor type, redacted changes and details', async () => {
    const range = pastRange(now());
    const generate = () =>
      rawRequest(server().url, 'POST', '/__admin/audit-events', { body: { count: 60, ...range } });
    expect((await generate()).status).toBe(201);
    const first = await readAll(server().url, range);
    server().admin.reset();
    await generate();
    const second = await readAll(server().url, range);
    expect(second.events).toEqual(first.events);
    const events = first.events as Array<
      WireEvent & { schemaVersion: number; actor: Record<string, unknown> }
    >;
    expect(new Set(events.map((e) => e.schemaVersion))).toEqual(new Set([1, 2]));
    expect(new Set(events.map((e) => e.actor.type))).toEqual(
      new Set(['USER', 'API_KEY', 'AUTOMATION', 'ANONYMOUS', 'SYSTEM']),
    );
    const kinds = events
      .filter((e) => e.actor.type === 'AUTOMATION')
      .map((e) => (e.actor.automation as { kind: string }).kind);
    expect(new Set(kinds)).toEqual(new Set(['SCHEDULER', 'RUNNER', 'LISTENER']));
    expect(
      events
        .filter((e) => e.schemaVersion === 1)
        .every((e) => ['USER', 'SYSTEM'].includes(e.actor.type as string)),
    ).toBe(true);
    const changes = events.flatMap(
      (e) => e.changes as Array<{ isRedacted: boolean; before: unknown; after: unknown }>,
    );
    expect(changes.some((c) => c.isRedacted && c.before === null && c.after === null)).toBe(true);
    expect(events.some((e) => (e.details as { signInMethod?: string }).signInMethod)).toBe(true);
    expect(events.every((e) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(e.occurredAt))).toBe(true);
  });

  it('stores explicit events exactly as given, unknown fields and values included', async () => {
    const event = {
      id: 'evt-explicit-1',
      schemaVersion: 3,
      occurredAt: new Date(now() - HOUR).toISOString(),
      type: 'platform.robot.arrived',
      actor: { type: 'ROBOT', serial: 7 },
      futureField: { nested: [1, 2] },
    };
    const res = await rawRequest(server().url, 'POST', '/__admin/audit-events', {
      body: { events: [event] },
    });
    expect(res.status).toBe(201);
    const page = await getEvents(server().url, {});
    expect(page.body.content).toEqual([event]);
    const again = await rawRequest(server().url, 'POST', '/__admin/audit-events', {
      body: { events: [event] },
    });
    expect(again.status).toBe(409);
  });

  it('refuses invalid admin requests with 422', async () => {
    for (const body of [
      { count: 0 },
      { count: 5, scope: 'team' },
      { events: [{ id: 'x' }] },
      { count: 2, from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
    ]) {
      const res = await rawRequest(server().url, 'POST', '/__admin/audit-events', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });
});
