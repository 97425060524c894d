import { afterEach, describe, expect, it } from 'vitest';
import { isActorType } from '../../src/audit/schemas.js';
import { SvcClient } from '../../src/client.js';
import {
  LocalValidationError,
  PaymentRequiredError,
  SvcError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import type { Transport, TransportRequest } from '../../src/core/transport/types.js';
import { useReferenceServer } from '../helpers/server.js';
import { DAY, isNewestFirst, pastRange } from './helpers.js';

const server = useReferenceServer();
const clients: SvcClient[] = [];

function client(options: ConstructorParameters<typeof SvcClient>[0] = {}): SvcClient {
  const c = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project', ...options });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A transport that answers from a list of pages keyed by the cursor sent. */
function fakePages(pages: Record<string, { content: unknown[]; nextCursor: string | null }>): {
  transport: Transport;
  requests: URL[];
} {
  const requests: URL[] = [];
  return {
    requests,
    transport: {
      async request(req: TransportRequest) {
        const url = new URL(req.url);
        requests.push(url);
        const page = pages[url.searchParams.get('cursor') ?? 'first'];
        const body = {
          from: url.searchParams.get('from'),
          to: url.searchParams.get('to'),
          page: 0,
          pageSize: 2,
          totalElements: 3,
          ...page,
        };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      },
    },
  };
}

const event = (id: string, occurredAt = '2026-01-01T00:00:00.000Z') => ({
  id,
  schemaVersion: 2,
  occurredAt,
  type: 'platform.user.authenticated',
  actor: { type: 'USER', userId: 'usr_alice' },
});

describe('listEvents returns one typed page; unknown fields and values are kept', () => {
  it('types the actor union and keeps unknown fields', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 24, ...range });
    server().admin.addAuditEvents({
      events: [{ ...event('robot-1', range.to), actor: { type: 'ROBOT', serial: 7 }, futureField: 'kept' }],
    });
    const page = await client().audit.listEvents({ ...range, pageSize: 1000 });
    expect(page.content).toHaveLength(25);
    expect(page.totalElements).toBe(25);
    const robot = page.content.find((e) => e.id === 'robot-1');
    expect(robot).toMatchObject({ futureField: 'kept', actor: { type: 'ROBOT', serial: 7 } });
    const automation = page.content.map((e) => e.actor).find((a) => isActorType(a, 'AUTOMATION'));
    expect(automation && isActorType(automation, 'AUTOMATION') && automation.automation.name).toMatch(/\w/);
    const users = page.content.map((e) => e.actor).filter((a) => isActorType(a, 'USER'));
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((a) => isActorType(a, 'USER') && a.userId.startsWith('usr_'))).toBe(true);
    expect(isActorType({ type: 'USER' }, 'USER')).toBe(false);
  });
});

describe('Requests are checked before sending (nothing is sent for invalid input)', () => {
  it.each([
    [{ from: 'yesterday' }],
    [{ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }],
    [{ pageSize: 0 }],
    [{ pageSize: 1001 }],
    [{ page: -1 }],
    [{ size: 10 }],
  ])('refuses %j', async (params) => {
    await expect(client().audit.listEvents(params as never)).rejects.toBeInstanceOf(LocalValidationError);
    expect(server().admin.requests()).toEqual([]);
  });

  it('names the broken rule, the same the reference server checks', async () => {
    const error = await client()
      .audit.listEvents({ from: 'yesterday' })
      .catch((e: unknown) => e);
    expect((error as LocalValidationError).issues).toEqual([
      { path: 'from', message: 'must be an ISO 8601 UTC timestamp such as 2026-01-31T00:00:00Z' },
    ]);
  });

  it('sends only the parameters given, leaving defaults to the API', async () => {
    const urls: URL[] = [];
    await client({ onRequest: (e) => urls.push(new URL(e.url)) }).audit.listEvents({ pageSize: 5 });
    expect([...(urls[0]?.searchParams.keys() ?? [])]).toEqual(['pageSize']);
  });

  it('accepts Date objects', async () => {
    const t = server().admin.now();
    const page = await client().audit.listEvents({ from: new Date(t - DAY), to: new Date(t) });
    expect(Date.parse(page.to)).toBe(t);
  });
});

describe('events(): every event of the range through cursors, with from and to fixed once', () => {
  it('reads all pages with the same from and to, newest first', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 450, ...range });
    const urls: string[] = [];
    const c = client({ onRequest: (e) => urls.push(e.url) });
    const events = [];
    for await (const e of c.audit.events({ ...range, pageSize: 100 })) events.push(e);
    expect(events).toHaveLength(450);
    expect(new Set(events.map((e) => e.id)).size).toBe(450);
    expect(isNewestFirst(events)).toBe(true);
    expect(urls).toHaveLength(5);
    const ranges = new Set(
      urls.map((u) => `${new URL(u).searchParams.get('from')}|${new URL(u).searchParams.get('to')}`),
    );
    expect(ranges.size).toBe(1);
  });

  it('resolves omitted from and to on the client before the first request', async () => {
    server().admin.addAuditEvents({ count: 150 });
    const urls: URL[] = [];
    const c = client({ onRequest: (e) => urls.push(new URL(e.url)) });
    const pages = [];
    for await (const page of c.audit.events({ pageSize: 100 }).pages()) pages.push(page);
    expect(pages.map((p) => p.content.length)).toEqual([100, 50]);
    const [first, second] = urls;
    const from = first?.searchParams.get('from');
    const to = first?.searchParams.get('to');
    expect(Date.parse(to as string) - Date.parse(from as string)).toBe(DAY);
    expect(second?.searchParams.get('from')).toBe(from);
    expect(second?.searchParams.get('to')).toBe(to);
  });

  it('throws on a repeated cursor instead of looping', async () => {
    const { transport } = fakePages({
      first: { content: [event('c')], nextCursor: 'A' },
      A: { content: [event('b')], nextCursor: 'B' },
      B: { content: [event('a')], nextCursor: 'A' },
    });
    const c = client({ transport });
    const seen: string[] = [];
    const run = async () => {
      for await (const e of c.audit.events({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }))
        seen.push(e.id);
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('repeated_cursor');
    expect((error as Error).message).toMatch(/already returned/);
    expect(seen).toEqual(['c', 'b', 'a']);
  });

  it('drops an event delivered twice across a page boundary', async () => {
    const { transport } = fakePages({
      first: { content: [event('e3'), event('e2')], nextCursor: 'A' },
      A: { content: [event('e2'), event('e1')], nextCursor: null },
    });
    const ids: string[] = [];
    for await (const e of client({ transport }).audit.events({
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-02T00:00:00Z',
    }))
      ids.push(e.id);
    expect(ids).toEqual(['e3', 'e2', 'e1']);
  });
});

describe('GET /platform/v1/events is retried on 5xx, 429 and connection errors', () => {
  it('retries a 503 after a backoff and returns the page', async () => {
    let calls = 0;
    const delays: number[] = [];
    const transport: Transport = {
      async request(req) {
        calls += 1;
        if (calls === 1) return { status: 503, headers: {}, body: '{"detail":"busy"}' };
        const url = new URL(req.url);
        return {
          status: 200,
          headers: {},
          body: JSON.stringify({
            from: url.searchParams.get('from'),
            to: url.searchParams.get('to'),
            content: [],
            page: 0,
            pageSize: 100,
            totalElements: 0,
            nextCursor: null,
          }),
        };
      },
    };
    const c = client({ transport, sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    const page = await c.audit.listEvents({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' });
    expect(page.content).toEqual([]);
    expect(calls).toBe(2);
    expect(delays).toEqual([250]);
  });
});

describe('Service errors arrive as typed errors', () => {
  it('gives PaymentRequiredError for a plan without the audit log and UnprocessableEntityError for a bad cursor', async () => {
    const basic = client({ apiKey: 'ak_basic_project' });
    const error = await basic.audit.listEvents().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).message).toMatch(
      /402 Payment Required: GET \/platform\/v1\/events \(The plan does not include the audit log API\)/,
    );
    const bad = await client()
      .audit.listEvents({ cursor: 'forged.cursor' })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UnprocessableEntityError);
    expect((bad as Error).message).toMatch(/cursor was not returned by this API/);
  });
});
