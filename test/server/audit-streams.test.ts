import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAuditPush } from '../../src/audit/push/signature.js';
import { closeHttp, listenHttp } from '../../src/node/http/listen.js';
import type { ReferenceServerOptions } from '../../src/server/app.js';
import type { CreateAuditStream } from '../../src/server/audit/stream-config.js';
import { DEFAULT_STREAM_OPTIONS, retryDelay } from '../../src/server/audit/stream-delivery.js';
import { MAX_STREAMS } from '../../src/server/audit/streams.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import type { DeliveryTimer } from '../../src/server/tax/webhook-sender.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** One request the receiver got, its body decoded as the headers say. */
interface Push {
  headers: IncomingHttpHeaders;
  /** The body as received: what the signature covers (the gzip bytes when gzipped). */
  raw: Buffer;
  /** The body after Content-Encoding. */
  payload: string;
  events: Array<Record<string, unknown>>;
  status: number;
}

/** What the receiver answers its n-th request (from 1): a status, or `hang` (never answers). */
type Answer = (n: number) => number | 'hang';

const servers: Server[] = [];
const references: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(references.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => closeHttp(s)));
});

/** A receiver that records every push; its handler can be started again on the same port. */
function receiverServer(answer: Answer, pushes: Push[]): Server {
  let n = 0;
  const server = createServer((req, res) => {
    n += 1;
    const status = answer(n);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const payload = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const events =
        req.headers['content-type'] === 'application/x-ndjson'
          ? payload
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line))
          : [JSON.parse(payload)].flat();
      pushes.push({ headers: req.headers, raw, payload, events, status: status === 'hang' ? 0 : status });
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  servers.push(server);
  return server;
}

async function receiver(answer: Answer = () => 204) {
  const pushes: Push[] = [];
  const { baseUrl, port } = await listenHttp(receiverServer(answer, pushes), '127.0.0.1', 0);
  return { url: `${baseUrl}/audit`, port, pushes };
}

/** A retry timer that records each wait and fires on the next turn: no test sleeps. */
function capturingTimer(onWait: (ms: number, count: number) => void | Promise<void> = () => {}) {
  const delays: number[] = [];
  const timer: DeliveryTimer = (callback, ms) => {
    delays.push(ms);
    let cancelled = false;
    void Promise.resolve(onWait(ms, delays.length)).then(() =>
      setImmediate(() => {
        if (!cancelled) callback();
      }),
    );
    return () => {
      cancelled = true;
    };
  };
  return { delays, timer };
}

async function reference(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const server = await createReferenceServer({
    auditStreams: { timer: capturingTimer().timer },
    ...options,
  });
  references.push(server);
  return server;
}

function admin(server: ReferenceServer, method: string, path: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** `count` explicit events of the demo project with ids `<prefix>-0000`... one second apart. */
function explicitEvents(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(4, '0')}`,
    schemaVersion: 1,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    type: 'platform.api-key',
    action: 'created',
    actor: { type: 'USER', userId: 'usr_alice' },
  }));
}

/** Every id of the demo project's events the pull API serves (the last 24 hours), newest first. */
async function pulledIds(server: ReferenceServer): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await fetch(`${server.url}/platform/v1/events?pageSize=1000${query}`, {
      headers: { authorization: 'Bearer ak_demo_project' },
    });
    const page = (await res.json()) as { content: Array<{ id: string }>; nextCursor: string | null };
    for (const event of page.content) ids.push(event.id);
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** The Standard Webhooks headers of a push, as the standardwebhooks package takes them. */
const headersOf = (push: Push) => push.headers as Record<string, string>;

/** The base64 HMAC-SHA256 of `${id}.${timestamp}.` and `body` under the test secret's key. */
function hmac(push: Push, body: Buffer): string {
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key)
    .update(`${push.headers['webhook-id']}.${push.headers['webhook-timestamp']}.`)
    .update(body)
    .digest('base64');
}

const idsOf = (pushes: Push[]) => pushes.flatMap((p) => p.events.map((e) => String(e.id)));

describe('POST /__admin/audit-streams makes a stream; GET lists it with its counters; DELETE and reset remove it', () => {
  it('answers 201 with the stream (never its secret), lists it, deletes it once, 404 after', async () => {
    const server = await reference();
    const made = await admin(server, 'POST', '/__admin/audit-streams', {
      url: 'http://127.0.0.1:9/audit',
      secret: SECRET,
    });
    expect(made.status).toBe(201);
    const stream = (await made.json()) as Record<string, unknown>;
    expect(stream).toMatchObject({
      streamId: expect.stringMatching(/^as_[0-9a-f]{16}$/),
      format: 'ndjson',
      gzip: false,
      batchSize: 100,
      scope: 'project',
      ownerId: 'demo',
      faults: { duplicateRate: 0, reorder: false, dropRate: 0, delayMs: 0, seed: 1 },
      counters: { recorded: 0, pushed: 0, delivered: 0, queued: 0 },
    });
    expect(JSON.stringify(stream)).not.toContain('whsec_');
    const list = (await (await admin(server, 'GET', '/__admin/audit-streams')).json()) as {
      streams: Array<{ streamId: string }>;
    };
    expect(list.streams.map((s) => s.streamId)).toEqual([stream.streamId]);
    expect((await admin(server, 'DELETE', `/__admin/audit-streams/${stream.streamId}`)).status).toBe(200);
    expect((await admin(server, 'DELETE', `/__admin/audit-streams/${stream.streamId}`)).status).toBe(404);
    expect((await admin(server, 'POST', `/__admin/audit-streams/${stream.streamId}/flush`)).status).toBe(404);
    server.admin.createAuditStream({ url: 'http://127.0.0.1:9/audit', secret: SECRET });
    expect((await admin(server, 'POST', '/__admin/reset')).status).toBe(204);
    expect(server.admin.auditStreams()).toEqual([]);
  });

  it(`at most ${MAX_STREAMS} streams: one more is 409`, async () => {
    const server = await reference();
    for (let i = 0; i < MAX_STREAMS; i++)
      server.admin.createAuditStream({ url: 'http://127.0.0.1:9/a', secret: SECRET });
    const res = await admin(server, 'POST', '/__admin/audit-streams', {
      url: 'http://127.0.0.1:9/a',
      secret: SECRET,
    });
    expect(res.status).toBe(409);
    expect(server.admin.auditStreams()).toHaveLength(MAX_STREAMS);
  });

  it.each([
    ['no secret', { url: 'http://127.0.0.1:9/a' }, 'secret'],
    [
      'a secret without whsec_',
      { url: 'http://127.0.0.1:9/a', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      'secret',
    ],
    ['a secret that is not base64', { url: 'http://127.0.0.1:9/a', secret: 'whsec_not base64!' }, 'secret'],
    ['an ftp URL', { url: 'ftp://127.0.0.1/a', secret: SECRET }, 'url'],
    ['a URL over 2048 characters', { url: `http://127.0.0.1/${'a'.repeat(2048)}`, secret: SECRET }, 'url'],
    ['batchSize 0', { url: 'http://127.0.0.1:9/a', secret: SECRET, batchSize: 0 }, 'batchSize'],
    ['batchSize 10001', { url: 'http://127.0.0.1:9/a', secret: SECRET, batchSize: 10_001 }, 'batchSize'],
    [
      'single with batchSize 5',
      { url: 'http://127.0.0.1:9/a', secret: SECRET, format: 'single', batchSize: 5 },
      'batchSize',
    ],
    ['format xml', { url: 'http://127.0.0.1:9/a', secret: SECRET, format: 'xml' }, 'format'],
    [
      'dropRate 1.5',
      { url: 'http://127.0.0.1:9/a', secret: SECRET, faults: { dropRate: 1.5 } },
      'faults.dropRate',
    ],
    ['an unknown field', { url: 'http://127.0.0.1:9/a', secret: SECRET, token: 'x' }, ''],
    [
      'projectId with ownerId',
      { url: 'http://127.0.0.1:9/a', secret: SECRET, projectId: 'p', ownerId: 'o' },
      'projectId',
    ],
  ])('%s is 422 naming the field', async (_, body, path) => {
    const server = await reference();
    const res = await admin(server, 'POST', '/__admin/audit-streams', body);
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { errors: Array<{ path: string }> };
    expect(problem.errors.map((e) => e.path)).toContain(path);
    expect(server.admin.auditStreams()).toEqual([]);
  });
});

describe('every event recorded for the owner from the moment the stream exists is pushed, in the chosen form', () => {
  it.each([
    ['single', false],
    ['single', true],
    ['array', false],
    ['array', true],
    ['ndjson', false],
    ['ndjson', true],
  ] as const)(
    '%s, gzip %s: each event once, in requests of at most batchSize, with its content type',
    async (format, gzip) => {
      const server = await reference();
      const { url, pushes } = await receiver();
      server.admin.addAuditEvents({ events: explicitEvents('before', 3) });
      server.admin.createAuditStream({
        url,
        format,
        gzip,
        batchSize: format === 'single' ? 1 : 7,
        secret: SECRET,
      });
      const events = explicitEvents(`${format}-${gzip}`, 30);
      server.admin.addAuditEvents({ events });
      server.admin.addAuditEvents({ events: explicitEvents('agency', 4), scope: 'agency' });
      await server.admin.flushAuditStreams();
      expect(idsOf(pushes).sort()).toEqual(events.map((e) => e.id).sort());
      // Events arrive exactly as stored.
      const byId = new Map(pushes.flatMap((p) => p.events).map((e) => [e.id, e]));
      expect(byId.get(events[5]?.id)).toEqual(events[5]);
      for (const push of pushes) {
        expect(push.headers['content-type']).toBe(
          format === 'ndjson' ? 'application/x-ndjson' : 'application/json',
        );
        expect(push.headers['content-encoding']).toBe(gzip ? 'gzip' : undefined);
        expect(push.events.length).toBeLessThanOrEqual(format === 'single' ? 1 : 7);
        if (format === 'single') expect(push.payload.startsWith('{')).toBe(true);
        if (format === 'array') expect(push.payload.startsWith('[')).toBe(true);
        if (format === 'ndjson') expect(push.payload.endsWith('}\n')).toBe(true);
      }
      expect(pushes).toHaveLength(format === 'single' ? 30 : 5);
      expect(server.admin.auditStreams()[0]?.counters).toMatchObject({
        recorded: 30,
        pushed: 30,
        delivered: 30,
        batchesDelivered: pushes.length,
        attempts: pushes.length,
        failedAttempts: 0,
        queued: 0,
      });
    },
  );

  it('generated events of a project made with POST /__admin/projects: the pushed ids are the pulled ones', async () => {
    const server = await reference();
    const { url, pushes } = await receiver();
    const { projectId } = server.admin.createProject({ name: 'client-a' });
    server.admin.createAuditStream({ url, secret: SECRET, projectId, batchSize: 1000 });
    server.admin.addAuditEvents({ count: 2500, projectId });
    server.admin.addAuditEvents({ count: 40 });
    await server.admin.flushAuditStreams();
    const pushed = idsOf(pushes);
    expect(pushed).toHaveLength(2500);
    expect(new Set(pushed).size).toBe(2500);
    expect(pushes.map((p) => p.events.length).sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
  });

  it('the admin route that records the events answers before the receiver does', async () => {
    const server = await reference();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pushes: Push[] = [];
    const hold = createServer((req, res) => {
      req.resume();
      void held.then(() => res.writeHead(204).end());
      pushes.push({ headers: req.headers, raw: Buffer.alloc(0), payload: '', events: [], status: 204 });
    });
    servers.push(hold);
    const { baseUrl } = await listenHttp(hold, '127.0.0.1', 0);
    server.admin.createAuditStream({ url: `${baseUrl}/audit`, secret: SECRET });
    const res = await admin(server, 'POST', '/__admin/audit-events', { count: 10 });
    expect(res.status).toBe(201);
    expect(server.admin.auditStreams()[0]?.counters.queued).toBe(10);
    release();
    await server.admin.flushAuditStreams();
    expect(server.admin.auditStreams()[0]?.counters).toMatchObject({ delivered: 10, queued: 0 });
  });
});

describe('each request is signed per Standard Webhooks: webhook-id, webhook-timestamp (server clock), webhook-signature', () => {
  it('the standardwebhooks package verifies every request; ids are unique per batch', async () => {
    const server = await reference();
    const { url, pushes } = await receiver();
    server.admin.createAuditStream({ url, secret: SECRET, format: 'array', batchSize: 10 });
    const before = Math.floor(server.admin.now() / 1000);
    server.admin.addAuditEvents({ count: 95 });
    await server.admin.flushAuditStreams();
    const after = Math.floor(server.admin.now() / 1000);
    const wh = new Webhook(SECRET);
    for (const push of pushes) {
      expect(() => wh.verify(push.raw, headersOf(push))).not.toThrow();
      const timestamp = Number(push.headers['webhook-timestamp']);
      expect(timestamp).toBeGreaterThanOrEqual(before);
      expect(timestamp).toBeLessThanOrEqual(after);
      expect(push.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    expect(new Set(pushes.map((p) => p.headers['webhook-id'])).size).toBe(10);
    // Another secret does not verify.
    const other = new Webhook('whsec_c2VjcmV0LW9mLWFub3RoZXItc3RyZWFtIQ==');
    expect(() => other.verify(pushes[0]?.raw ?? '', headersOf(pushes[0] as Push))).toThrow();
  });

  it('NDJSON is signed as sent, verified without parsing it as JSON', async () => {
    const server = await reference();
    const { url, pushes } = await receiver();
    server.admin.createAuditStream({ url, secret: SECRET });
    server.admin.addAuditEvents({ count: 3 });
    await server.admin.flushAuditStreams();
    expect(pushes).toHaveLength(1);
    const push = pushes[0] as Push;
    new Webhook(SECRET).verify(push.raw, headersOf(push), { jsonParse: false });
  });

  it('a gzipped body is signed as sent, its gzip bytes (the HMAC by node:crypto and verifyAuditPush agree)', async () => {
    const server = await reference();
    const { url, pushes } = await receiver();
    server.admin.createAuditStream({ url, secret: SECRET, format: 'single', gzip: true });
    server.admin.addAuditEvents({ count: 4 });
    await server.admin.flushAuditStreams();
    expect(pushes).toHaveLength(4);
    for (const push of pushes) {
      // standardwebhooks 1.1.1 turns a Buffer into UTF-8 text before signing, so binary bodies are checked here.
      expect(push.headers['webhook-signature']).toBe(`v1,${hmac(push, push.raw)}`);
      expect(push.headers['webhook-signature']).not.toBe(`v1,${hmac(push, Buffer.from(push.payload))}`);
      expect(
        await verifyAuditPush({ body: push.raw, headers: push.headers, secrets: [SECRET] }),
      ).toMatchObject({
        ok: true,
        check: 'standard-webhooks',
        id: push.headers['webhook-id'],
      });
    }
  });
});

describe('a batch is sent until it is answered 2xx, with the same webhook-id, on a backoff of 0.5 s doubling to 30 s', () => {
  it('the backoff: 500, 1000, 2000, ... 16000, then 30000 for ever', () => {
    const delays = Array.from({ length: 9 }, (_, i) => retryDelay(i + 1, DEFAULT_STREAM_OPTIONS));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('three 500s, then 204: four attempts of one id, the waits handed to the timer', async () => {
    const { delays, timer } = capturingTimer();
    const server = await reference({ auditStreams: { timer } });
    const { url, pushes } = await receiver((n) => (n <= 3 ? 500 : 204));
    server.admin.createAuditStream({ url, secret: SECRET });
    server.admin.addAuditEvents({ count: 5 });
    await server.admin.flushAuditStreams();
    expect(pushes.map((p) => p.status)).toEqual([500, 500, 500, 204]);
    expect(new Set(pushes.map((p) => p.headers['webhook-id'])).size).toBe(1);
    expect(new Set(pushes.map((p) => p.payload)).size).toBe(1);
    expect(delays).toEqual([500, 1000, 2000]);
    expect(server.admin.auditStreams()[0]).toMatchObject({
      counters: { delivered: 5, attempts: 4, failedAttempts: 3, batchesDelivered: 1, queued: 0 },
      lastError: 'status 500',
    });
  });

  it('a refused connection is tried again until the receiver listens', async () => {
    // A port that was free a moment ago: nothing listens there until the fourth wait.
    const probe = createServer();
    const { port } = await listenHttp(probe, '127.0.0.1', 0);
    await closeHttp(probe);
    const pushes: Push[] = [];
    const { delays, timer } = capturingTimer(async (_, count) => {
      if (count === 4)
        await listenHttp(
          receiverServer(() => 200, pushes),
          '127.0.0.1',
          port,
        );
    });
    const server = await reference({ auditStreams: { timer } });
    server.admin.createAuditStream({ url: `http://127.0.0.1:${port}/audit`, secret: SECRET, batchSize: 2 });
    server.admin.addAuditEvents({ count: 2 });
    await server.admin.flushAuditStreams();
    expect(delays).toEqual([500, 1000, 2000, 4000]);
    expect(pushes).toHaveLength(1);
    expect(server.admin.auditStreams()[0]).toMatchObject({
      counters: { delivered: 2, attempts: 5, failedAttempts: 4 },
      lastError: 'ECONNREFUSED',
    });
  });

  it('no answer within the attempt timeout is a failed attempt, sent again', async () => {
    const server = await reference({ auditStreams: { timer: capturingTimer().timer, timeoutMs: 50 } });
    const { url, pushes } = await receiver((n) => (n === 1 ? 'hang' : 204));
    server.admin.createAuditStream({ url, secret: SECRET });
    server.admin.addAuditEvents({ count: 1 });
    await server.admin.flushAuditStreams();
    expect(pushes).toHaveLength(2);
    expect(pushes[0]?.headers['webhook-id']).toBe(pushes[1]?.headers['webhook-id']);
    expect(server.admin.auditStreams()[0]).toMatchObject({
      counters: { delivered: 1, failedAttempts: 1 },
      lastError: 'timeout',
    });
  });

  it('POST /__admin/audit-streams/{id}/flush answers once the stream is flushed, or flushed: false at timeoutMs', async () => {
    const server = await reference({ auditStreams: { timer: capturingTimer().timer } });
    const { url } = await receiver();
    const { streamId } = server.admin.createAuditStream({ url, secret: SECRET });
    server.admin.addAuditEvents({ count: 120 });
    const res = await admin(server, 'POST', `/__admin/audit-streams/${streamId}/flush`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      flushed: true,
      stream: { counters: { delivered: 120, queued: 0 } },
    });

    // The real timer: the refused attempt waits 0.5 s for its retry, longer than the flush may.
    const real = await reference({ auditStreams: {} });
    real.admin.createAuditStream({ url: 'http://127.0.0.1:9/audit', secret: SECRET });
    real.admin.addAuditEvents({ count: 1 });
    const [stream] = real.admin.auditStreams();
    const late = await admin(real, 'POST', `/__admin/audit-streams/${stream?.streamId}/flush?timeoutMs=20`);
    expect(await late.json()).toMatchObject({ flushed: false, stream: { counters: { queued: 1 } } });
  });
});

describe('faults make the push lossy: duplicates in a later batch, reordering, drops, delays; counted, the same for a seed', () => {
  /** The batches one stream sends for two recordings: `webhook-id` sequence number -> ids. */
  async function batches(faults: CreateAuditStream['faults']) {
    const server = await reference();
    const { url, pushes } = await receiver();
    server.admin.createAuditStream({ url, secret: SECRET, batchSize: 20, faults });
    server.admin.addAuditEvents({ events: explicitEvents('a', 150) });
    server.admin.addAuditEvents({ events: explicitEvents('b', 50) });
    await server.admin.flushAuditStreams();
    const bySeq = new Map(
      pushes.map((p) => [
        Number(String(p.headers['webhook-id']).split('_').pop()),
        p.events.map((e) => e.id),
      ]),
    );
    const ordered = [...bySeq.keys()].sort((x, y) => x - y).map((k) => bySeq.get(k) as string[]);
    return { ordered, counters: server.admin.auditStreams()[0]?.counters, pushes };
  }

  it('the same seed gives the same batches; another seed others', async () => {
    const faults = { duplicateRate: 0.2, dropRate: 0.1, reorder: true, seed: 7 };
    const one = await batches(faults);
    const two = await batches(faults);
    const other = await batches({ ...faults, seed: 8 });
    expect(two.ordered).toEqual(one.ordered);
    expect(two.counters).toEqual(one.counters);
    expect(other.ordered).not.toEqual(one.ordered);
  });

  it('a duplicate goes in a later batch than its first copy; a batch never mixes two recordings', async () => {
    const { ordered, counters } = await batches({ duplicateRate: 0.3, seed: 3 });
    const firstBatch = new Map<string, number>();
    let duplicates = 0;
    ordered.forEach((ids, batch) => {
      expect(new Set(ids.map((id) => id.split('-')[0])).size).toBe(1);
      for (const id of ids) {
        const first = firstBatch.get(id);
        if (first === undefined) firstBatch.set(id, batch);
        else {
          duplicates += 1;
          expect(first).toBeLessThan(batch);
        }
      }
    });
    expect(firstBatch.size).toBe(200);
    expect(duplicates).toBe(counters?.duplicated);
    expect(duplicates).toBeGreaterThan(30);
    expect(counters).toMatchObject({ dropped: 0, pushed: 200 + duplicates, delivered: 200 + duplicates });
  });

  it('without reorder each recording goes oldest first; with it, shuffled across its batches', async () => {
    const plain = (await batches(undefined)).ordered.flat();
    expect(plain).toEqual([...explicitEvents('a', 150), ...explicitEvents('b', 50)].map((e) => e.id));
    const shuffled = (await batches({ reorder: true, seed: 5 })).ordered;
    expect(shuffled.flat()).not.toEqual(plain);
    expect([...shuffled.flat()].sort()).toEqual([...plain].sort());
    // Events of one recording land in batches other than their neighbours'.
    expect(shuffled[0]?.every((id) => id < 'a-0020')).toBe(false);
  });

  it('dropRate 1 pushes nothing and counts every event dropped; the pull API still has them', async () => {
    const server = await reference();
    const { url, pushes } = await receiver();
    server.admin.createAuditStream({ url, secret: SECRET, faults: { dropRate: 1 } });
    server.admin.addAuditEvents({ count: 300 });
    await server.admin.flushAuditStreams();
    expect(pushes).toHaveLength(0);
    expect(server.admin.auditStreams()[0]?.counters).toMatchObject({
      recorded: 300,
      dropped: 300,
      pushed: 0,
      queued: 0,
    });
    expect(await pulledIds(server)).toHaveLength(300);
  });

  it('delayMs waits before every attempt, retries too', async () => {
    const { delays, timer } = capturingTimer();
    const server = await reference({ auditStreams: { timer, concurrency: 1 } });
    const { url } = await receiver((n) => (n === 1 ? 503 : 204));
    server.admin.createAuditStream({ url, secret: SECRET, batchSize: 5, faults: { delayMs: 25 } });
    server.admin.addAuditEvents({ count: 10 });
    await server.admin.flushAuditStreams();
    expect(delays).toEqual([25, 500, 25, 25]);
  });
});

describe('10,000 events with 10 % duplicates, reordering and 5 % drops arrive as the counters say', () => {
  it('every event not dropped at least once, the dropped ones never, copies = duplicated', async () => {
    const server = await reference();
    const { url, pushes } = await receiver((n) => (n % 17 === 0 ? 500 : 204));
    server.admin.createAuditStream({
      url,
      secret: SECRET,
      format: 'ndjson',
      gzip: true,
      batchSize: 250,
      faults: { duplicateRate: 0.1, reorder: true, dropRate: 0.05, seed: 42 },
    });
    server.admin.addAuditEvents({ count: 10_000 });
    await server.admin.flushAuditStreams();
    const counters = server.admin.auditStreams()[0]?.counters;
    const pulled = await pulledIds(server);
    expect(pulled).toHaveLength(10_000);
    const delivered = pushes.filter((p) => p.status === 204);
    const received = idsOf(delivered);
    const distinct = new Set(received);
    const known = new Set(pulled);
    for (const id of distinct) expect(known.has(id)).toBe(true);
    expect(counters).toBeDefined();
    const c = counters as NonNullable<typeof counters>;
    expect(c.recorded).toBe(10_000);
    expect(distinct.size).toBe(10_000 - c.dropped);
    expect(received.length - distinct.size).toBe(c.duplicated);
    expect(received.length).toBe(c.delivered);
    expect(c).toMatchObject({ pushed: c.delivered, queued: 0, batchesDelivered: delivered.length });
    expect(c.failedAttempts).toBe(pushes.length - delivered.length);
    // Near the rates asked for.
    expect(c.dropped).toBeGreaterThan(400);
    expect(c.dropped).toBeLessThan(600);
    expect(c.duplicated).toBeGreaterThan(800);
    expect(c.duplicated).toBeLessThan(1100);
    for (const push of pushes) {
      expect(
        await verifyAuditPush({ body: push.raw, headers: push.headers, secrets: [SECRET] }),
      ).toMatchObject({
        ok: true,
      });
    }
  });
});
