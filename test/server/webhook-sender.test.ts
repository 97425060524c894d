import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeHttp, listenHttp } from '../../src/node/http/listen.js';
import { ServerState } from '../../src/server/state.js';
import { DEFAULT_RETRY_DELAYS_MS, WebhookSender } from '../../src/server/tax/webhook-sender.js';

/**
 * A receiver that answers `status` (or `status(n)` for its n-th request, from 1) and records
 * connections, requests, bodies and the most in flight.
 */
async function receiver(status: number | ((n: number) => number)) {
  const seen = { connections: 0, requests: 0, inFlight: 0, maxInFlight: 0, bodies: [] as string[] };
  const server: Server = createServer((req, res) => {
    seen.requests += 1;
    const n = seen.requests;
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.bodies.push(Buffer.concat(chunks).toString());
      // Answer on a later turn so deliveries overlap when the sender lets them.
      setImmediate(() => {
        seen.inFlight -= 1;
        res.writeHead(typeof status === 'number' ? status : status(n)).end();
      });
    });
  });
  server.on('connection', () => {
    seen.connections += 1;
  });
  const { baseUrl } = await listenHttp(server, '127.0.0.1', 0);
  servers.push(server);
  return { url: `${baseUrl}/hook`, seen };
}

const servers: Server[] = [];
const senders: WebhookSender[] = [];
afterEach(async () => {
  for (const sender of senders.splice(0)) sender.close();
  await Promise.all(servers.splice(0).map((s) => closeHttp(s)));
});

function sender(options: ConstructorParameters<typeof WebhookSender>[1]) {
  const state = new ServerState();
  const s = new WebhookSender(state, options);
  senders.push(s);
  return { state, s };
}

describe('webhook deliveries reuse a bounded number of keep-alive connections', () => {
  it('300 events over at most `concurrency` sockets, never more in flight', async () => {
    const { url, seen } = await receiver(204);
    const { state, s } = sender({ concurrency: 3 });
    s.endpoints.push(url);
    for (let i = 0; i < 300; i++) s.send({ eventType: 'test', i });
    await s.drain();
    expect(state.stats.webhooksSent).toBe(300);
    expect(seen.requests).toBe(300);
    expect(seen.maxInFlight).toBeLessThanOrEqual(3);
    expect(seen.connections).toBeLessThanOrEqual(3);
  });
});

describe('a failing endpoint is tried once plus once per retry delay, then counted as failed', () => {
  it('answers 500: two attempts each, all failed', async () => {
    const { url, seen } = await receiver(500);
    const { state, s } = sender({ concurrency: 2, retryDelaysMs: [0] });
    s.endpoints.push(url);
    for (let i = 0; i < 4; i++) s.send({ eventType: 'test', i });
    await s.drain();
    expect(seen.requests).toBe(8);
    expect(state.stats).toMatchObject({ webhooksSent: 0, webhooksFailed: 4, webhookAttempts: 8 });
  });
});

describe('no event is ever dropped: a burst waits in the queue, as numbers, and is delivered', () => {
  it('2,000 events, one connection, a slow listener, 20 % failed attempts: each delivered once', async () => {
    const { url, seen } = await receiver(200);
    // Few records and few retries held whole: most deliveries exist only as queue entries.
    const { state, s } = sender({
      concurrency: 1,
      maxRetrying: 2,
      maxRecords: 5,
      retryDelaysMs: Array(12).fill(0),
    });
    state.faults.configure({ rate: 0.2, kinds: ['webhookStatus500'], seed: 3 });
    s.endpoints.push(url);
    const count = 2000;
    for (let i = 0; i < count; i++) s.send({ eventType: 'test', i });
    await s.drain();
    const received = seen.bodies.map((b) => (JSON.parse(b) as { i: number }).i).sort((a, b) => a - b);
    expect(received).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(state.stats.webhooksSent).toBe(count);
    expect(state.stats.webhooksFailed).toBe(0);
    expect(state.stats.webhookAttempts).toBeGreaterThan(count);
    expect(s.deliveries(5).map((d) => d.state)).toEqual(Array(5).fill('delivered'));
  });

  it('an event kind is queued as a number and its payload built when it is sent', async () => {
    const { url, seen } = await receiver(204);
    const { state, s } = sender({ concurrency: 1 });
    const built: number[] = [];
    const names = ['a', 'b', 'c'];
    const sendName = s.defineEvent('test.named', (ref) => {
      built.push(ref);
      return { eventType: 'test.named', name: names[ref] };
    });
    s.endpoints.push(url);
    for (let ref = 0; ref < 3; ref++) sendName(ref);
    // Changed before the queued ones are sent: the payload shows the state at sending.
    names[2] = 'c2';
    await s.drain();
    expect(seen.bodies.map((b) => JSON.parse(b))).toEqual([
      { eventType: 'test.named', name: 'a' },
      { eventType: 'test.named', name: 'b' },
      { eventType: 'test.named', name: 'c2' },
    ]);
    expect(built).toEqual([0, 1, 2]);
    expect(state.stats.webhooksSent).toBe(3);
  });
});

describe('a reset drops the events not yet sent', () => {
  it('drain resolves once the deliveries in flight end', async () => {
    const { url, seen } = await receiver(200);
    const { state, s } = sender({ concurrency: 1 });
    s.endpoints.push(url);
    for (let i = 0; i < 50; i++) s.send({ eventType: 'test', i });
    state.reset();
    await s.drain();
    expect(seen.requests).toBe(1);
    expect(s.endpoints).toEqual([]);
  });
});

/** A retry timer that records each delay and fires on the next turn instead of waiting. */
function capturingTimer() {
  const delays: number[] = [];
  const timer = (callback: () => void, ms: number) => {
    delays.push(ms);
    const handle = setImmediate(callback);
    return () => clearImmediate(handle);
  };
  return { delays, timer };
}

describe('failed attempts are retried on the documented backoff schedule', () => {
  it('the default schedule is 1 s, 5 s, 30 s, 2 min, 10 min: six attempts, then failed', async () => {
    const { url, seen } = await receiver(503);
    const { delays, timer } = capturingTimer();
    const { state, s } = sender({ timer });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await s.drain();
    expect(delays).toEqual([...DEFAULT_RETRY_DELAYS_MS]);
    expect(seen.requests).toBe(6);
    expect(state.stats).toMatchObject({ webhookAttempts: 6, webhooksFailed: 1, webhooksSent: 0 });
    expect(s.deliveries()[0]).toMatchObject({ state: 'failed', attempts: 6, lastStatus: 503 });
  });

  it('a retry does not hold a connection slot while it waits', async () => {
    const { url, seen } = await receiver(500);
    const pending: Array<() => void> = [];
    const { state, s } = sender({
      concurrency: 1,
      retryDelaysMs: [60_000],
      timer: (callback) => {
        pending.push(callback);
        return () => {};
      },
    });
    s.endpoints.push(url);
    for (let i = 0; i < 5; i++) s.send({ eventType: 'test', i });
    // All five first attempts are made although each waits a minute for its retry.
    await vi.waitFor(() => expect(pending).toHaveLength(5));
    expect(seen.requests).toBe(5);
    expect(s.deliveries(10).map((d) => d.state)).toEqual(Array(5).fill('retrying'));
    for (const fire of pending.splice(0)) fire();
    await s.drain();
    expect(state.stats).toMatchObject({ webhookAttempts: 10, webhooksFailed: 5 });
  });
});

describe('webhook delivery faults: a failed attempt (500 or reset), a lost event, a duplicate', () => {
  it('webhookStatus500 at rate 1 fails every attempt without reaching the endpoint', async () => {
    const { url, seen } = await receiver(200);
    const { state, s } = sender({ retryDelaysMs: [0, 0] });
    state.faults.configure({ rate: 1, kinds: ['webhookStatus500'], seed: 1 });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await s.drain();
    expect(seen.requests).toBe(0);
    expect(state.stats).toMatchObject({ webhookAttempts: 3, webhooksFailed: 1 });
    expect(s.deliveries()[0]).toMatchObject({ state: 'failed', lastStatus: 500 });
  });

  it('webhookReset cuts the request in half; the retry delivers it', async () => {
    const { url } = await receiver(200);
    const { state, s } = sender({ retryDelaysMs: [0] });
    state.faults.configure({ rate: 1, kinds: ['webhookReset'], seed: 1 });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    // Only the first attempt is faulted: switch faults off before the retry fires.
    await vi.waitFor(() => expect(state.stats.webhookAttempts).toBe(1));
    state.faults.configure(undefined);
    await s.drain();
    expect(s.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('webhookLost: the event is never delivered and never retried', async () => {
    const { url, seen } = await receiver(200);
    const { state, s } = sender({});
    state.faults.configure({ rate: 1, kinds: ['webhookLost'], seed: 1 });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await s.drain();
    expect(seen.requests).toBe(0);
    expect(s.deliveries()[0]).toMatchObject({ state: 'lost', attempts: 0 });
    expect(state.stats.webhooksFailed).toBe(1);
  });

  it('webhookDuplicate delivers the same body twice', async () => {
    const { url, seen } = await receiver(200);
    const { state, s } = sender({});
    state.faults.configure({ rate: 1, kinds: ['webhookDuplicate'], seed: 1 });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await s.drain();
    expect(seen.requests).toBe(2);
    expect(state.stats).toMatchObject({ webhooksSent: 1, webhookAttempts: 2 });
  });

  it('API fault kinds never touch deliveries, and webhook kinds never touch API requests', () => {
    const state = new ServerState();
    state.faults.configure({ rate: 1, kinds: ['webhookLost'], seed: 1 });
    expect(state.faults.next()).toEqual({ kind: 'none' });
    state.faults.configure({ rate: 1, kinds: ['status500'], seed: 1 });
    expect(state.faults.nextDelivery()).toBeUndefined();
  });
});

describe('each delivery has a record: newest first, bounded, redeliverable', () => {
  it('keeps only the newest `maxRecords`, lists newest first, filters by state', async () => {
    const { url } = await receiver(200);
    const { s } = sender({ maxRecords: 3 });
    s.endpoints.push(url);
    for (let i = 0; i < 5; i++) s.send({ eventType: `t${i}` });
    await s.drain();
    const list = s.deliveries(10);
    expect(list.map((d) => d.eventType)).toEqual(['t4', 't3', 't2']);
    expect(list[0]).toMatchObject({ id: 'dlv_5', eventId: 'evt_5', url, state: 'delivered', attempts: 1 });
    expect(s.deliveries(1)).toHaveLength(1);
    expect(s.deliveries(10, 'failed')).toEqual([]);
  });

  it('redeliver sends an ended delivery again; unknown ids are 404', async () => {
    const { url, seen } = await receiver(200);
    const { s } = sender({});
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await s.drain();
    expect(s.redeliver('dlv_1')).toMatchObject({ id: 'dlv_1', eventType: 'test' });
    await s.drain();
    expect(seen.requests).toBe(2);
    expect(s.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(() => s.redeliver('dlv_99')).toThrow(/No webhook delivery/);
    expect(() => s.redeliver('../../etc')).toThrow(/No webhook delivery/);
  });

  it('redeliver of a delivery still under way is refused (409)', async () => {
    const { url } = await receiver(500);
    const { s } = sender({ retryDelaysMs: [60_000], timer: () => () => {} });
    s.endpoints.push(url);
    s.send({ eventType: 'test' });
    await vi.waitFor(() => expect(s.deliveries()[0]?.state).toBe('retrying'));
    expect(() => s.redeliver('dlv_1')).toThrow(expect.objectContaining({ status: 409 }));
    s.close();
  });
});

describe('retries held past `maxRetrying` hold back new first attempts, which wait and are never dropped', () => {
  it('with one retry waiting and maxRetrying 1, the next event stays queued until the retry ends', async () => {
    const { url, seen } = await receiver((n) => (n === 1 ? 500 : 200));
    const pending: Array<() => void> = [];
    const { state, s } = sender({
      maxRetrying: 1,
      retryDelaysMs: [60_000],
      timer: (callback) => {
        pending.push(callback);
        return () => {};
      },
    });
    s.endpoints.push(url);
    s.send({ eventType: 'first' });
    await vi.waitFor(() => expect(s.deliveries()[0]?.state).toBe('retrying'));
    s.send({ eventType: 'second' });
    expect(s.deliveries()[0]).toMatchObject({ eventType: 'second', state: 'queued' });
    expect(seen.requests).toBe(1);
    for (const fire of pending.splice(0)) fire();
    await s.drain();
    expect(s.deliveries().map((d) => [d.eventType, d.state])).toEqual([
      ['second', 'delivered'],
      ['first', 'delivered'],
    ]);
    expect(state.stats).toMatchObject({ webhooksSent: 2, webhooksFailed: 0, webhookAttempts: 3 });
  });
});
