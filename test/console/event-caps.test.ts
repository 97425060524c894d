import { describe, expect, it } from 'vitest';
import { EventBus, MAX_HISTORY_BYTES } from '../../src/server/events/bus.js';
import { MAX_EVENT_BYTES, MAX_EVENT_STRING, TRUNCATED } from '../../src/server/events/caps.js';
import type { RequestEvent } from '../../src/server/events/types.js';
import { requestEvent } from '../helpers/console-events.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('a console event is capped: each string at 1024 characters with a visible marker, the whole at 8 KiB', () => {
  it('a 2 MB path is cut to 1024 characters ending in the marker; short fields are left alone', () => {
    const bus = new EventBus(() => 0);
    bus.publish('request', requestEvent(`/${'p'.repeat(2_000_000)}`));
    const [event] = bus.since(undefined).events;
    const data = (event?.data ?? {}) as RequestEvent;
    expect(MAX_EVENT_STRING).toBe(1024);
    expect(data.path).toHaveLength(MAX_EVENT_STRING);
    expect(data.path.endsWith(TRUNCATED)).toBe(true);
    expect(data.path.startsWith('/ppp')).toBe(true);
    expect(data.method).toBe('GET');
    expect(data.requestId).toBe('r');
  });

  it('worst case, every string long and escaped six bytes a character: the event is still at most 8 KiB', () => {
    const bus = new EventBus(() => 0);
    const huge = '\u0001'.repeat(100_000);
    bus.publish('webhook', {
      id: huge,
      url: huge,
      eventType: huge,
      attempts: 1,
      lastStatus: null,
      lastError: huge,
      state: huge,
    });
    const [event] = bus.since(undefined).events;
    expect(MAX_EVENT_BYTES).toBe(8192);
    expect(sizeOf(event)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect((event?.data as { url: string } | undefined)?.url.endsWith(TRUNCATED)).toBe(true);
  });

  it('a cut never splits a surrogate pair', () => {
    const bus = new EventBus(() => 0);
    for (const prefix of ['', 'x']) bus.publish('request', requestEvent(prefix + '😀'.repeat(5000)));
    for (const event of bus.since(undefined).events) {
      const path = (event.data as { path: string }).path;
      // encodeURIComponent throws on a lone surrogate.
      expect(() => encodeURIComponent(path)).not.toThrow();
      expect(path.endsWith(TRUNCATED)).toBe(true);
    }
  });

  it('through the server: a request with a 12 KB path is listed with its path cut', async () => {
    await fetch(`${server().url}/taxvalidation/v1/${'a'.repeat(12_000)}`);
    const [event] = server()
      .admin.consoleEvents()
      .filter((e) => e.type === 'request');
    const path = (event?.data as { path: string } | undefined)?.path ?? '';
    expect(path).toHaveLength(MAX_EVENT_STRING);
    expect(path.endsWith(TRUNCATED)).toBe(true);
  });
});

/** Reads `/__console/events` until the frame with `id: lastId`; returns the bytes and the ids received. */
async function connectConsole(lastId: number): Promise<{ bytes: number; ids: number[] }> {
  const abort = new AbortController();
  const res = await fetch(`${server().url}/__console/events`, { signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  while (!text.includes(`id: ${lastId}\n`)) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.length;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return { bytes, ids: [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])) };
}

describe('the console history is bounded in bytes as well as in count (1 MiB, oldest dropped first)', () => {
  it('a console that connects after 1000 large events receives at most 1 MiB of them, the newest', async () => {
    const path = `/taxvalidation/v1/${'b'.repeat(4000)}`;
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(server().url + path)));
    }
    const kept = server().admin.consoleEvents();
    // Ids go on across resets: the first of this test's 1000 is lastId - 999.
    const lastId = kept.at(-1)?.id ?? 0;
    expect(MAX_HISTORY_BYTES).toBe(1024 * 1024);
    const keptBytes = kept.reduce((sum, event) => sum + sizeOf(event), 0);
    expect(keptBytes).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    expect(kept.length).toBeLessThan(1000);

    const { bytes, ids } = await connectConsole(lastId);
    // The kept events, each framed (`id:`, `event:`, `data:`), plus the meta and settings frames.
    expect(bytes).toBeLessThanOrEqual(MAX_HISTORY_BYTES + kept.length * 40 + 4096);
    expect(ids).toEqual(kept.map((e) => e.id));
    expect(ids[0]).toBeGreaterThan(lastId - 999);
    expect(ids.at(-1)).toBe(lastId);
  });

  it('the count bound still holds for small events', () => {
    const bus = new EventBus(() => 0, 10);
    for (let i = 1; i <= 25; i++) bus.publish('request', requestEvent(`/p${i}`));
    expect(bus.since(undefined).events.map((e) => e.id)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
  });

  it('a tight byte bound drops the oldest first and always keeps the newest event', () => {
    const bus = new EventBus(() => 0, 1000, 2000);
    for (let i = 1; i <= 50; i++) bus.publish('request', requestEvent(`/${'c'.repeat(500)}${i}`));
    const ids = bus.since(undefined).events.map((e) => e.id);
    expect(ids.at(-1)).toBe(50);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThan(5);
    expect(bus.since(1).complete).toBe(false);
    const lone = new EventBus(() => 0, 1000, 10);
    lone.publish('request', requestEvent('/over-the-bound-alone'));
    expect(lone.since(undefined).events).toHaveLength(1);
  });
});
