import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { SvcClient } from '../../src/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let client: SvcClient | undefined;

afterEach(async () => {
  await client?.close();
  server().admin.setNow(Date.now());
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('tail polls with an overlap window, drops seen ids and yields new events oldest first', () => {
  it('delivers each new event once, including one recorded late inside the overlap', async () => {
    client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    const t0 = server().admin.now();
    const before = server().admin.addAuditEvents({ count: 5, from: iso(t0 - 30_000), to: iso(t0 - 1000) });
    const late: string[] = [];
    let polls = 0;
    const sleep = async (ms: number) => {
      polls += 1;
      server().admin.advanceClock(ms);
      const now = server().admin.now();
      server().admin.addAuditEvents({ count: 3, from: iso(now - 5000), to: iso(now) });
      if (polls === 2) {
        const id = `late-${polls}`;
        late.push(id);
        server().admin.addAuditEvents({
          events: [
            {
              id,
              schemaVersion: 2,
              occurredAt: iso(now - 30_000),
              type: 'x.y.late',
              actor: { type: 'SYSTEM' },
            },
          ],
        });
      }
    };
    const got: AuditEvent[] = [];
    for await (const event of client.audit.tail({
      intervalMs: 10_000,
      overlapMs: 60_000,
      maxPolls: 3,
      sleep,
    }))
      got.push(event);
    expect(polls).toBe(3);
    expect(got).toHaveLength(10);
    expect(new Set(got.map((e) => e.id)).size).toBe(10);
    expect(got.map((e) => e.id)).toContain(late[0]);
    expect(got.some((e) => e.id === before.newestId)).toBe(false);
    const lastPoll = got.slice(-3).map((e) => Date.parse(e.occurredAt));
    expect(lastPoll).toEqual([...lastPoll].sort((a, b) => a - b));
  });

  it('ends quietly when the signal fires', async () => {
    client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    const controller = new AbortController();
    const got: AuditEvent[] = [];
    const tail = client.audit.tail({ intervalMs: 60_000, signal: controller.signal });
    const pending = (async () => {
      for await (const event of tail) got.push(event);
    })();
    // Whether the abort lands in the first request or in the 60 s pause, the iteration ends without an error.
    setImmediate(() => controller.abort());
    await pending;
    expect(got).toEqual([]);
  });
});
