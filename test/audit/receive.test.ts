import { createHmac } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { signAuditPush } from '../../src/audit/push/signature.js';
import { SvcError } from '../../src/core/errors/error-classes.js';
import type { AuditReceiver, AuditReceiverOptions } from '../../src/node/audit-receive/receive.js';
import { startAuditReceiver } from '../../src/node/audit-receive/receive.js';
import { PUSH_SPOOL_NAME } from '../../src/node/audit-store/layout.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { readAll, type WireEvent } from './helpers.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD_SECRET = 'whsec_c2VjcmV0LW9mLWFub3RoZXItc3RyZWFtIQ==';
/** The receivers' clock: 2026-03-01T12:00:00Z unless a test moves it. */
const NOW = Date.UTC(2026, 2, 1, 12);

const dirs: string[] = [];
const receivers: AuditReceiver[] = [];
const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-receive-'));
  dirs.push(dir);
  return dir;
}

/** A settable clock for a receiver. */
function clock(start = NOW) {
  let at = start;
  return {
    now: () => at,
    advance(ms: number) {
      at += ms;
    },
  };
}

/** A receiver on a fresh folder (or `dir`), its clock at {@link NOW} unless `now` is given. */
async function receive(
  options: Partial<AuditReceiverOptions> = {},
): Promise<{ receiver: AuditReceiver; dir: string }> {
  const dir = options.dir ?? scratch();
  const receiver = await startAuditReceiver({ now: () => NOW, ...options, dir });
  receivers.push(receiver);
  return { receiver, dir };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read field by field
  json: any;
}

/** One request over loopback HTTP; the answer's body parsed as JSON when it is JSON. */
async function send(
  url: string,
  init: {
    method?: 'GET' | 'POST' | 'PUT';
    body?: string | Buffer | Readable;
    headers?: Record<string, string>;
    path?: string;
  } = {},
): Promise<Answer> {
  const target = new URL(init.path ?? '/audit', url);
  const res = await request(target, {
    method: init.method ?? 'POST',
    headers: init.headers ?? {},
    ...(init.body !== undefined && { body: init.body }),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** An audit event of the demo project. */
function event(id: string, occurredAt: string, extra: Record<string, unknown> = {}): WireEvent {
  return {
    id,
    schemaVersion: 1,
    occurredAt,
    type: 'platform.api-key',
    action: 'created',
    actor: { type: 'USER', userId: 'usr_alice' },
    ...extra,
  };
}

/** `count` events `<prefix>-000`, ... one second apart from 2026-03-01T00:00:00Z (the last newest). */
function events(prefix: string, count: number, fromSecond = 0): WireEvent[] {
  return Array.from({ length: count }, (_, i) =>
    event(
      `${prefix}-${String(i + fromSecond).padStart(3, '0')}`,
      new Date(Date.UTC(2026, 2, 1, 0, 0, i + fromSecond)).toISOString(),
    ),
  );
}

const ndjson = (list: readonly unknown[]) => list.map((e) => `${JSON.stringify(e)}\n`).join('');

/** Newest `occurredAt` first, then id: the order a spool object holds. */
const newestFirst = (list: readonly WireEvent[]) =>
  [...list].sort(
    (a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

/** The spool objects of `dir`, each with its events parsed line by line. */
function spool(dir: string): Array<{ name: string; events: WireEvent[] }> {
  return readdirSync(dir)
    .filter((name) => PUSH_SPOOL_NAME.test(name))
    .sort()
    .map((name) => ({
      name,
      events: readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as WireEvent),
    }));
}

const spooledIds = (dir: string) => spool(dir).flatMap((o) => o.events.map((e) => e.id));

/** The base64 HMAC-SHA256 of `${id}.${ts}.` and the body's bytes: what Standard Webhooks signs. */
function hmacSignature(secret: string, id: string, ts: number, body: Buffer): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64')}`;
}

/**
 * Standard Webhooks headers for `body`: signed by the standardwebhooks package when it is text,
 * by node:crypto over the raw bytes when it is a Buffer (the package would turn those into UTF-8
 * text first, which changes gzip bytes).
 */
function signed(
  body: string | Buffer,
  { secret = SECRET, id = 'msg_1', at = NOW }: { secret?: string; id?: string; at?: number } = {},
): Record<string, string> {
  const ts = Math.floor(at / 1000);
  const signature =
    typeof body === 'string'
      ? new Webhook(secret).sign(id, new Date(at), body)
      : hmacSignature(secret, id, ts, body);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signature };
}

describe('a push carrying a Standard Webhooks signature by one of secrets, its timestamp within toleranceSeconds, is accepted (signatures agree with the standardwebhooks package both ways)', () => {
  it('what Webhook.sign signs is accepted and spooled', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const body = JSON.stringify(events('a', 3));
    const res = await send(receiver.url, {
      body,
      headers: { 'content-type': 'application/json', ...signed(body) },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ received: 3, spooled: 3, duplicates: 0 });
    expect(spooledIds(dir).sort()).toEqual(['a-000', 'a-001', 'a-002']);
  });

  it('a gzip body signed over its bytes (node:crypto HMAC) is accepted', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const body = gzipSync(ndjson(events('g', 4)));
    const res = await send(receiver.url, {
      body,
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', ...signed(body) },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ received: 4, spooled: 4 });
    expect(spooledIds(dir)).toHaveLength(4);
  });

  it('signAuditPush signs what new Webhook(secret).verify accepts, and what node:crypto computes over gzip bytes', async () => {
    const body = JSON.stringify(events('v', 2));
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_other_way',
      'webhook-timestamp': String(ts),
      'webhook-signature': await signAuditPush(SECRET, 'msg_other_way', ts, body),
    };
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(OLD_SECRET).verify(body, headers)).toThrow();
    expect(() => new Webhook(SECRET).verify(`${body} `, headers)).toThrow();
    const gzip = gzipSync(body);
    expect(await signAuditPush(SECRET, 'msg_gz', ts, gzip)).toBe(hmacSignature(SECRET, 'msg_gz', ts, gzip));
  });

  it('a push signed by signAuditPush is accepted by the receiver', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const body = gzipSync(JSON.stringify(events('s', 2)));
    const ts = Math.floor(NOW / 1000);
    const res = await send(receiver.url, {
      body,
      headers: {
        'content-encoding': 'gzip',
        'webhook-id': 'msg_s',
        'webhook-timestamp': String(ts),
        'webhook-signature': await signAuditPush(SECRET, 'msg_s', ts, body),
      },
    });
    expect(res.status).toBe(200);
    expect(spooledIds(dir)).toHaveLength(2);
  });

  it('during a rotation the receiver given [new, old] accepts pushes signed by either', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET, OLD_SECRET] });
    const first = JSON.stringify(events('new', 2));
    const second = JSON.stringify(events('old', 2));
    const byNew = await send(receiver.url, { body: first, headers: signed(first, { secret: SECRET }) });
    const byOld = await send(receiver.url, {
      body: second,
      headers: signed(second, { secret: OLD_SECRET, id: 'msg_2' }),
    });
    expect([byNew.status, byOld.status]).toEqual([200, 200]);
    expect(spooledIds(dir)).toHaveLength(4);
  });
});

describe('a push without a valid signature is refused 401 with the reason, and nothing is written', () => {
  const body = JSON.stringify(events('x', 3));

  it.each([
    [
      'a body changed by one byte after signing',
      () => ({ body: body.replace('x-001', 'x-00l'), headers: signed(body) }),
      'no signature matches',
    ],
    [
      'a timestamp 6 minutes behind',
      () => ({ body, headers: signed(body, { at: NOW - 6 * 60_000 }) }),
      'timestamp 360 s off (tolerance 300 s)',
    ],
    [
      'a timestamp 6 minutes ahead',
      () => ({ body, headers: signed(body, { at: NOW + 6 * 60_000 }) }),
      'timestamp 360 s off (tolerance 300 s)',
    ],
    [
      'a secret taken off the receiver after a rotation',
      () => ({ body, headers: signed(body, { secret: OLD_SECRET }) }),
      'no signature matches',
    ],
    ['no signature at all', () => ({ body, headers: {} }), 'no webhook-signature header'],
    [
      'a gzip body signed as its inflated text',
      () => {
        const gzip = gzipSync(body);
        return { body: gzip, headers: { 'content-encoding': 'gzip', ...signed(body) } };
      },
      'no signature matches',
    ],
  ])('%s', async (_, make, reason) => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const res = await send(receiver.url, make());
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: reason });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('toleranceSeconds widens the window: 6 minutes off passes a tolerance of 600 s', async () => {
    const { receiver } = await receive({ secrets: [SECRET], toleranceSeconds: 600 });
    const res = await send(receiver.url, { body, headers: signed(body, { at: NOW - 6 * 60_000 }) });
    expect(res.status).toBe(200);
  });
});

describe('with bearer, a push must carry Authorization: Bearer and one of those secrets', () => {
  it('the right secret is accepted; a wrong one or none is 401, nothing written', async () => {
    const { receiver, dir } = await receive({ bearer: ['s3cret'] });
    const body = JSON.stringify(events('b', 2));
    const wrong = await send(receiver.url, { body, headers: { authorization: 'Bearer s3cre7' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'bearer secret does not match' });
    const none = await send(receiver.url, { body });
    expect(none.status).toBe(401);
    expect(none.json.error).toMatch(/Authorization/);
    expect(readdirSync(dir)).toEqual([]);
    const right = await send(receiver.url, { body, headers: { authorization: 'Bearer s3cret' } });
    expect(right.status).toBe(200);
    expect(right.json).toEqual({ received: 2, spooled: 2, duplicates: 0 });
  });
});

describe('off loopback a secret is required', () => {
  it('0.0.0.0 without secrets or bearer is a config SvcError', async () => {
    const dir = scratch();
    const start = startAuditReceiver({ dir, host: '0.0.0.0' });
    await expect(start).rejects.toBeInstanceOf(SvcError);
    await expect(start).rejects.toMatchObject({ code: 'config' });
  });

  it('0.0.0.0 with a secret starts, and takes pushes under any Host (an ingress names it)', async () => {
    const { receiver } = await receive({ host: '0.0.0.0', bearer: ['s3cret'] });
    const body = JSON.stringify(events('h', 1));
    const res = await send(`http://127.0.0.1:${receiver.port}/`, {
      body,
      headers: { authorization: 'Bearer s3cret', host: 'audit.example.com' },
    });
    expect(res.status).toBe(200);
  });

  it('a malformed secret is a config SvcError too', async () => {
    await expect(startAuditReceiver({ dir: scratch(), secrets: ['MfKQ9r8GKYqrTwjU'] })).rejects.toMatchObject(
      {
        code: 'config',
      },
    );
  });
});

describe('one object, a JSON array, NDJSON or an Okta event hook envelope, plain or gzip: the spool object holds the events, newest occurredAt first', () => {
  const sent = [...events('f', 5)].reverse().concat(events('f', 3, 10)); // out of order on purpose
  const forms: Array<[string, string, string, number]> = [
    ['one object', 'application/json', JSON.stringify(sent[0]), 1],
    ['a JSON array', 'application/json', JSON.stringify(sent), sent.length],
    ['NDJSON', 'application/x-ndjson', ndjson(sent), sent.length],
    ['NDJSON labelled application/json', 'application/json', ndjson(sent), sent.length],
  ];
  for (const gzip of [false, true]) {
    it.each(forms)(`%s${gzip ? ', gzip' : ''}`, async (_, contentType, text, count) => {
      const { receiver, dir } = await receive();
      const body = gzip ? gzipSync(text) : text;
      const res = await send(receiver.url, {
        body,
        headers: { 'content-type': contentType, ...(gzip && { 'content-encoding': 'gzip' }) },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ received: count, spooled: count, duplicates: 0 });
      const objects = spool(dir);
      expect(objects).toHaveLength(1);
      const expected = newestFirst(sent.slice(0, count));
      expect(objects[0]?.events).toEqual(expected);
      // Named by the span of its events' occurredAt, 13 digits of ms each.
      const oldest = Date.parse(expected[expected.length - 1]?.occurredAt as string);
      const newest = Date.parse(expected[0]?.occurredAt as string);
      expect(objects[0]?.name).toMatch(
        new RegExp(
          `^push-${String(oldest).padStart(13, '0')}-${String(newest).padStart(13, '0')}-[0-9a-f]{16}\\.ndjson$`,
        ),
      );
    });
  }

  it('an Okta event hook envelope: the events of data.events', async () => {
    const { receiver, dir } = await receive({ bearer: ['s3cret'] });
    const body = JSON.stringify({
      eventType: 'com.okta.event_hook',
      eventTypeVersion: '1.0',
      cloudEventsVersion: '0.1',
      source: 'https://example.okta.com/api/v1/eventHooks/who1',
      eventId: 'b5a188b9-5ece-4636-b041-482ffda96311',
      eventTime: '2026-03-01T12:00:00.000Z',
      contentType: 'application/json',
      data: { events: sent },
    });
    const res = await send(receiver.url, {
      body,
      headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ received: sent.length, spooled: sent.length, duplicates: 0 });
    const objects = spool(dir);
    expect(objects).toHaveLength(1);
    expect(objects[0]?.events).toEqual(newestFirst(sent));
  });

  it('an NDJSON line is kept as its bytes (key order, spacing)', async () => {
    const { receiver, dir } = await receive();
    const line = '{"occurredAt":"2026-03-01T00:00:00.000Z",  "id":"k-1","type":"t"}';
    const res = await send(receiver.url, {
      body: `${line}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(200);
    const [object] = spool(dir);
    expect(readFileSync(join(dir, object?.name as string), 'utf8')).toBe(`${line}\n`);
  });
});

describe('bounds: over maxBodyBytes as sent or inflated 413, malformed 400, unknown Content-Encoding 415; none writes anything', () => {
  const maxBodyBytes = 1000;
  const big = JSON.stringify([event('big-1', '2026-03-01T00:00:00.000Z', { note: 'n'.repeat(1200) })]);

  async function refused(body: string | Buffer | Readable, headers: Record<string, string> = {}) {
    const { receiver, dir } = await receive({ maxBodyBytes });
    const res = await send(receiver.url, {
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    expect(readdirSync(dir)).toEqual([]);
    return res;
  }

  it('a body over maxBodyBytes with Content-Length is 413', async () => {
    const res = await refused(big);
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/1000 bytes/);
  });

  it('a chunked body over maxBodyBytes is 413', async () => {
    async function* chunks() {
      yield Buffer.from(big.slice(0, 600));
      yield Buffer.from(big.slice(600));
    }
    const res = await refused(Readable.from(chunks()));
    expect(res.status).toBe(413);
  });

  it('a small gzip body that inflates past maxBodyBytes is 413', async () => {
    const gzip = gzipSync(big);
    expect(gzip.length).toBeLessThan(maxBodyBytes);
    const res = await refused(gzip, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/once inflated/);
  });

  it('a body of exactly maxBodyBytes is accepted', async () => {
    const { receiver } = await receive({ maxBodyBytes });
    const one = JSON.stringify(event('edge-1', '2026-03-01T00:00:00.000Z', { note: '' }));
    const body = JSON.stringify(
      event('edge-1', '2026-03-01T00:00:00.000Z', { note: 'n'.repeat(maxBodyBytes - one.length) }),
    );
    expect(Buffer.byteLength(body)).toBe(maxBodyBytes);
    expect((await send(receiver.url, { body })).status).toBe(200);
  });

  it.each([
    ['malformed JSON', '[{"id": "m-1", "occurredAt": ', /not JSON/],
    [
      'an NDJSON line that is not JSON',
      `${JSON.stringify(events('m', 1)[0])}\n{"id": oops}\n`,
      /line 2 is not JSON/,
    ],
    ['an event without an id', JSON.stringify([{ occurredAt: '2026-03-01T00:00:00Z' }]), /item 1.*"id"/],
    [
      'an occurredAt that is not a timestamp',
      JSON.stringify([events('m', 1)[0], event('m-bad', 'yesterday')]),
      /event 2: occurredAt is not a timestamp/,
    ],
    ['an occurredAt before 1970', JSON.stringify(event('m-old', '1969-12-31T23:59:59Z')), /occurredAt/],
    ['an empty body', '', /empty body/],
  ])('%s is 400 with the reason', async (_, body, reason) => {
    const res = await refused(body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(reason);
  });

  it('a corrupt gzip body is 400', async () => {
    const gzip = gzipSync(JSON.stringify(events('c', 3)));
    const res = await refused(gzip.subarray(0, gzip.length - 8), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/gzip/);
  });

  it('an unknown Content-Encoding is 415', async () => {
    const res = await refused(JSON.stringify(events('e', 1)), { 'content-encoding': 'br' });
    expect(res.status).toBe(415);
    expect(res.json.error).toMatch(/content-encoding/);
  });

  it('a maxBodyBytes out of bounds is a config SvcError', async () => {
    for (const bad of [0, 1.5, 256 * 1024 * 1024 + 1])
      await expect(startAuditReceiver({ dir: scratch(), maxBodyBytes: bad })).rejects.toMatchObject({
        code: 'config',
      });
  });
});

describe('the events the archive does not hold yet are written as one spool object before the 200; the others are duplicates', () => {
  const batch = events('d', 10);
  const post = (url: string, list: readonly WireEvent[]) => send(url, { body: JSON.stringify(list) });

  it('the same push twice: the second spools nothing, one spool object', async () => {
    const { receiver, dir } = await receive();
    expect((await post(receiver.url, batch)).json).toEqual({ received: 10, spooled: 10, duplicates: 0 });
    // The object is there the moment the 200 is read.
    expect(spool(dir)).toHaveLength(1);
    expect((await post(receiver.url, batch)).json).toEqual({ received: 10, spooled: 0, duplicates: 10 });
    expect(spool(dir)).toHaveLength(1);
  });

  it('two pushes sharing half their events: the second spools only the new half', async () => {
    const { receiver, dir } = await receive();
    await post(receiver.url, batch);
    const second = [...batch.slice(5), ...events('d', 5, 10)];
    expect((await post(receiver.url, second)).json).toEqual({ received: 10, spooled: 5, duplicates: 5 });
    const objects = spool(dir);
    expect(objects).toHaveLength(2);
    const newer = objects.find((o) => o.events.some((e) => e.id === 'd-010'));
    expect(newer?.events.map((e) => e.id).sort()).toEqual(['d-010', 'd-011', 'd-012', 'd-013', 'd-014']);
  });

  it('an event repeated inside one push is spooled once', async () => {
    const { receiver, dir } = await receive();
    const res = await post(receiver.url, [...batch, batch[0] as WireEvent, batch[3] as WireEvent]);
    expect(res.json).toEqual({ received: 12, spooled: 10, duplicates: 2 });
    expect(spooledIds(dir)).toHaveLength(10);
  });

  it('the same batch 5 times at once: each event exactly once across the spool', async () => {
    const { receiver, dir } = await receive();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(receiver.url, batch)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const spooled = answers.reduce((sum, a) => sum + a.json.spooled, 0);
    const duplicates = answers.reduce((sum, a) => sum + a.json.duplicates, 0);
    expect([spooled, duplicates]).toEqual([10, 40]);
    expect(spooledIds(dir).sort()).toEqual(batch.map((e) => e.id));
  });

  it('overlapping batches at once: each event exactly once', async () => {
    const { receiver, dir } = await receive();
    const all = events('o', 40);
    const slices = [all.slice(0, 20), all.slice(10, 30), all.slice(20, 40), all.slice(5, 35), all];
    const answers = await Promise.all(slices.map((list) => post(receiver.url, list)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.reduce((sum, a) => sum + a.json.spooled, 0)).toBe(40);
    expect(spooledIds(dir).sort()).toEqual(all.map((e) => e.id));
  });

  it('a receiver started again on the same folder dedupes against the spool there', async () => {
    const first = await receive();
    await post(first.receiver.url, batch);
    await first.receiver.close();
    const { receiver, dir } = await receive({ dir: first.dir });
    expect((await receiver.health()).backlog).toEqual({ objects: 1, events: 10 });
    const res = await post(receiver.url, [...batch, ...events('d', 2, 10)]);
    expect(res.json).toEqual({ received: 12, spooled: 2, duplicates: 10 });
    expect(spooledIds(dir)).toHaveLength(12);
  });

  it('the same id with other content is written; that content again is a duplicate', async () => {
    const { receiver, dir } = await receive();
    const original = event('same-1', '2026-03-01T00:00:00.000Z');
    const changed = event('same-1', '2026-03-01T00:00:00.000Z', { action: 'revoked' });
    const other = event('other-1', '2026-03-01T00:00:01.000Z');
    await post(receiver.url, [original]);
    expect((await post(receiver.url, [changed, other])).json).toEqual({
      received: 2,
      spooled: 2,
      duplicates: 0,
    });
    expect((await post(receiver.url, [changed])).json).toEqual({ received: 1, spooled: 0, duplicates: 1 });
    expect((await post(receiver.url, [original])).json).toEqual({ received: 1, spooled: 0, duplicates: 1 });
    const copies = spool(dir).flatMap((o) => o.events.filter((e) => e.id === 'same-1'));
    expect(copies).toEqual(expect.arrayContaining([original, changed]));
    expect(copies).toHaveLength(2);
  });

  it('after a restart, both contents of one id read back from the spool are duplicates', async () => {
    const first = await receive();
    const original = event('same-2', '2026-03-01T00:00:00.000Z');
    const changed = event('same-2', '2026-03-01T00:00:00.000Z', { action: 'revoked' });
    await post(first.receiver.url, [original]);
    await post(first.receiver.url, [changed, event('other-2', '2026-03-01T00:00:02.000Z')]);
    await first.receiver.close();
    const { receiver } = await receive({ dir: first.dir });
    expect((await post(receiver.url, [changed])).json).toEqual({ received: 1, spooled: 0, duplicates: 1 });
    expect((await post(receiver.url, [original])).json).toEqual({ received: 1, spooled: 0, duplicates: 1 });
  });
});

describe('handshakes: a test delivery is answered 200 and writes nothing; Okta verification is answered with its challenge', () => {
  it('{"test": true} is 200 {probe: true}, nothing written', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const body = '{"test": true}';
    const res = await send(receiver.url, { body, headers: signed(body) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ probe: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an unsigned probe to a receiver with secrets is 401', async () => {
    const { receiver } = await receive({ secrets: [SECRET] });
    expect((await send(receiver.url, { body: '{"test": true}' })).status).toBe(401);
  });

  it('a GET with X-Okta-Verification-Challenge answers {"verification": ...}', async () => {
    const { receiver } = await receive({ secrets: [SECRET] });
    const res = await send(receiver.url, {
      method: 'GET',
      path: '/okta',
      headers: { 'x-okta-verification-challenge': 'abc' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json).toEqual({ verification: 'abc' });
    expect((await send(receiver.url, { method: 'GET', path: '/okta' })).status).toBe(404);
  });
});

describe('requests from a browser (Origin) and, on loopback, under a foreign Host are 403', () => {
  it('a POST with an Origin header is 403, even signed, and writes nothing', async () => {
    const { receiver, dir } = await receive({ secrets: [SECRET] });
    const body = JSON.stringify(events('o', 2));
    const res = await send(receiver.url, {
      body,
      headers: { origin: 'https://evil.example', ...signed(body) },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/browser/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('Host: evil.example:PORT is 403; localhost:PORT is served', async () => {
    const { receiver, dir } = await receive();
    const body = JSON.stringify(events('r', 2));
    const evil = await send(receiver.url, { body, headers: { host: `evil.example:${receiver.port}` } });
    expect(evil.status).toBe(403);
    const health = await send(receiver.url, {
      method: 'GET',
      path: '/healthz',
      headers: { host: `evil.example:${receiver.port}` },
    });
    expect(health.status).toBe(403);
    expect(readdirSync(dir)).toEqual([]);
    const local = await send(receiver.url, { body, headers: { host: `localhost:${receiver.port}` } });
    expect(local.status).toBe(200);
  });
});

describe('GET /healthz answers status, counts, lastPushAt, lastEventAt and the backlog', () => {
  it('counts pushes accepted and refused, events spooled and duplicates; the backlog follows the spool', async () => {
    const time = clock();
    const { receiver, dir } = await receive({ secrets: [SECRET], now: time.now });
    const before = await send(receiver.url, { method: 'GET', path: '/healthz' });
    expect(before.status).toBe(200);
    expect(before.json).toEqual({
      status: 'ok',
      startedAt: new Date(NOW).toISOString(),
      accepted: 0,
      refused: 0,
      spooled: 0,
      duplicates: 0,
      lastPushAt: null,
      lastEventAt: null,
      backlog: { objects: 0, events: 0 },
    });

    const first = JSON.stringify(events('hz', 4));
    const second = JSON.stringify(events('hz', 4, 2)); // hz-002, hz-003 again, hz-004, hz-005 new
    time.advance(1000);
    await send(receiver.url, { body: first, headers: signed(first, { at: time.now() }) });
    time.advance(1000);
    await send(receiver.url, { body: second, headers: signed(second, { at: time.now(), id: 'msg_2' }) });
    await send(receiver.url, { body: second, headers: signed(second, { secret: OLD_SECRET }) });
    time.advance(1000);
    const health = await send(receiver.url, { method: 'GET', path: '/healthz' });
    expect(health.json).toEqual({
      status: 'ok',
      startedAt: new Date(NOW).toISOString(),
      accepted: 2,
      refused: 1,
      spooled: 6,
      duplicates: 2,
      lastPushAt: new Date(NOW + 2000).toISOString(),
      lastEventAt: '2026-03-01T00:00:05.000Z',
      backlog: { objects: 2, events: 6 },
    });
    expect(await receiver.health()).toEqual(health.json);

    // A sync retires an object: at most 5 s later the backlog shows it gone.
    const [retired] = spool(dir);
    unlinkSync(join(dir, retired?.name as string));
    time.advance(5000);
    const after = await receiver.health();
    expect(after.backlog).toEqual({ objects: 1, events: 6 - (retired?.events.length ?? 0) });
    expect(after.spooled).toBe(6);
  });

  it('objects another receiver of the same folder writes join the backlog and are not written again', async () => {
    const time = clock();
    const one = await receive({ now: time.now });
    const two = await receive({ dir: one.dir, now: time.now });
    await send(two.receiver.url, { body: JSON.stringify(events('two', 3)) });
    time.advance(5000);
    expect((await one.receiver.health()).backlog).toEqual({ objects: 1, events: 3 });
    const res = await send(one.receiver.url, { body: JSON.stringify(events('two', 3)) });
    expect(res.json).toEqual({ received: 3, spooled: 0, duplicates: 3 });
  });
});

describe('a push lists the spool again when the last listing is 5 s old, as the health route does', () => {
  it("sees another receiver's objects before it claims, with nobody asking for the health", async () => {
    const time = clock();
    const one = await receive({ now: time.now });
    const two = await receive({ dir: one.dir, now: time.now });
    await send(two.receiver.url, { body: JSON.stringify(events('peer', 3)) });
    const early = await send(one.receiver.url, { body: JSON.stringify(events('peer', 1)) });
    expect(early.json).toEqual({ received: 1, spooled: 1, duplicates: 0 }); // listed under 5 s ago
    time.advance(5000);
    const late = await send(one.receiver.url, { body: JSON.stringify(events('peer', 3)) });
    expect(late.json).toEqual({ received: 3, spooled: 0, duplicates: 3 });
  });

  it('lets go of the ids of objects a sync retired, at most every 10 minutes, on the push path', async () => {
    const time = clock();
    const { receiver, dir } = await receive({ now: time.now });
    await send(receiver.url, { body: JSON.stringify(events('old', 3)) });
    for (const object of spool(dir)) unlinkSync(join(dir, object.name));
    time.advance(5000);
    const soon = await send(receiver.url, { body: JSON.stringify(events('old', 3)) });
    expect(soon.json).toEqual({ received: 3, spooled: 0, duplicates: 3 }); // retired, not rebuilt yet
    time.advance(10 * 60_000);
    // Rebuilt from the spool (empty) and the archive's state (none): the ids are no longer held.
    const later = await send(receiver.url, { body: JSON.stringify(events('old', 3)) });
    expect(later.json).toEqual({ received: 3, spooled: 3, duplicates: 0 });
  });
});

describe('a store that fails is a 503 with Retry-After, and nothing is acknowledged', () => {
  it.skipIf(process.getuid?.() === 0)(
    'a read-only folder: 503 with retry-after; writable again: 200',
    async () => {
      const { receiver, dir } = await receive();
      const body = JSON.stringify(events('ro', 3));
      chmodSync(dir, 0o500);
      const failed = await send(receiver.url, { body });
      expect(failed.status).toBe(503);
      expect(failed.headers['retry-after']).toBe('5');
      expect(failed.json.error).toMatch(/could not be written/);
      chmodSync(dir, 0o700);
      expect(readdirSync(dir)).toEqual([]);
      const again = await send(receiver.url, { body });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ received: 3, spooled: 3, duplicates: 0 });
      expect(spooledIds(dir)).toHaveLength(3);
      expect(await receiver.health()).toMatchObject({ accepted: 1, refused: 1, spooled: 3 });
    },
  );

  it('a folder replaced by a file (fails as root too): 503, and the events are written once it is back', async () => {
    const { receiver, dir } = await receive();
    const batch = events('gone', 4);
    await send(receiver.url, { body: JSON.stringify(batch.slice(0, 2)) });
    renameSync(dir, `${dir}-away`);
    writeFileSync(dir, 'not a folder');
    const failed = await send(receiver.url, { body: JSON.stringify(batch) });
    expect(failed.status).toBe(503);
    expect(failed.headers['retry-after']).toBe('5');
    rmSync(dir);
    renameSync(`${dir}-away`, dir);
    // The two events of the failed write are not taken for written: they are spooled now.
    const again = await send(receiver.url, { body: JSON.stringify(batch) });
    expect(again.json).toEqual({ received: 4, spooled: 2, duplicates: 2 });
    expect(spooledIds(dir).sort()).toEqual(batch.map((e) => e.id));
  });
});

describe('end to end: the reference server pushes a lossy stream; the spool holds each delivered event once, as the pull API serves it', () => {
  const cases: Array<['single' | 'array' | 'ndjson', boolean, number]> = [
    ['single', false, 200],
    ['single', true, 200],
    ['array', false, 3000],
    ['array', true, 3000],
    ['ndjson', false, 3000],
    ['ndjson', true, 3000],
  ];
  it.each(cases)('format %s, gzip %s, %i events', async (format, gzip, count) => {
    const { receiver, dir } = await receive({ secrets: [SECRET], now: Date.now });
    const server = await createReferenceServer({ port: 0 });
    servers.push(server);
    server.admin.freezeClock(true);
    server.admin.setNow(Date.now());
    server.admin.createAuditStream({
      url: receiver.url,
      secret: SECRET,
      format,
      gzip,
      faults: { duplicateRate: 0.1, dropRate: 0.05, reorder: true },
    });
    server.admin.addAuditEvents({ count });
    await server.admin.flushAuditStreams();
    const counters = server.admin.auditStreams()[0]?.counters;
    expect(counters).toMatchObject({ recorded: count, queued: 0 });
    expect(counters?.duplicated).toBeGreaterThan(0);
    expect(counters?.dropped).toBeGreaterThan(0);

    const spooled = spool(dir).flatMap((o) => o.events);
    const ids = spooled.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe((counters?.recorded ?? 0) - (counters?.dropped ?? 0));

    const { events: pulled } = await readAll(server.url, { pageSize: 1000 });
    expect(pulled).toHaveLength(count);
    const byId = new Map(pulled.map((e) => [e.id, e]));
    for (const e of spooled) expect(e).toEqual(byId.get(e.id));

    const health = await receiver.health();
    expect(health).toMatchObject({ spooled: ids.length, duplicates: counters?.duplicated, refused: 0 });
  });
});
