import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeHttp, listenHttp } from '../../src/core/listen.js';
import { ServerState } from '../../src/server/state.js';
import { WebhookSender } from '../../src/server/tax/webhook-sender.js';

/** A receiver that answers `status` and records connections, requests and the most in flight. */
async function receiver(status: number) {
  const seen = { connections: 0, requests: 0, inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    seen.requests += 1;
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    req.resume();
    req.on('end', () => {
      // Answer on a later turn so deliveries overlap when the sender lets them.
      setImmediate(() => {
        seen.inFlight -= 1;
        res.writeHead(status).end();
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

describe('a failing endpoint is tried `attempts` times per event, then counted as failed', () => {
  it('answers 500: two attempts each, all failed', async () => {
    const { url, seen } = await receiver(500);
    const { state, s } = sender({ concurrency: 2, attempts: 2 });
    s.endpoints.push(url);
    for (let i = 0; i < 4; i++) s.send({ eventType: 'test', i });
    await s.drain();
    expect(seen.requests).toBe(8);
    expect(state.stats).toMatchObject({ webhooksSent: 0, webhooksFailed: 4 });
  });
});

describe('the queue per endpoint is bounded: past `maxQueued` new events are dropped and counted', () => {
  it('one in flight, five waiting, the other fourteen dropped', async () => {
    const { url, seen } = await receiver(200);
    const { state, s } = sender({ concurrency: 1, maxQueued: 5 });
    s.endpoints.push(url);
    for (let i = 0; i < 20; i++) s.send({ eventType: 'test', i });
    await s.drain();
    expect(seen.requests).toBe(6);
    expect(state.stats).toMatchObject({ webhooksSent: 6, webhooksFailed: 14 });
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
