import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectRetentionCommand, type S3ServiceException } from '@aws-sdk/client-s3';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import {
  type AuditReceiver,
  listAuditGaps,
  RECEIVE_HEALTH_PATH,
  startAuditReceiver,
  syncAuditArchive,
  verifyAuditArchive,
} from '../../src/node/index.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR, readAll, type WireEvent } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPOOL_KEY = /^audit\/push-\d{13}-\d{13}-[0-9a-f]{16}\.ndjson$/;
let s3: S3TestServer;
let dir: string;
let client: SvcClient;
let bucket: string;
let bucketN = 0;
const receivers: AuditReceiver[] = [];
const scratch: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-receive-s3-'));
  bucket = `receive-${++bucketN}`;
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  await dropScratch(dir, client);
  for (const path of scratch.splice(0)) rmSync(path, { recursive: true, force: true });
});

const settings = (extra: Partial<S3StoreSettings> = {}) => s3.storeSettings(extra);
const url = () => `s3://${bucket}/audit`;
const freshWork = () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-receive-s3-work-'));
  scratch.push(work);
  return work;
};
const spoolKeys = async () => [...(await s3.objects(bucket)).keys()].filter((key) => SPOOL_KEY.test(key));

async function receive(extra: Partial<S3StoreSettings> = {}): Promise<AuditReceiver> {
  const receiver = await startAuditReceiver({
    dir: url(),
    s3: settings(extra),
    secrets: [SECRET],
    now: () => server().admin.now(),
  });
  receivers.push(receiver);
  return receiver;
}

/** A lossy stream from the reference server to `receiver`, `count` events pushed and delivered. */
async function pushLossily(receiver: AuditReceiver, count: number) {
  server().admin.createAuditStream({
    url: receiver.url,
    secret: SECRET,
    scope: 'project',
    faults: { duplicateRate: 0.1, dropRate: 0.05, reorder: true },
  });
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0 - HOUR) });
  await server().admin.flushAuditStreams();
  return server().admin.auditStreams()[0]?.counters;
}

/** The reference server's events of the last three hours, oldest first. */
async function oldestFirst(): Promise<WireEvent[]> {
  const { events } = await readAll(server().url, { from: iso(T0 - 3 * HOUR), to: iso(T0) });
  return events.reverse();
}

/** Newest `occurredAt` first, then id: the order a spool object holds. */
const newestFirst = (list: readonly WireEvent[]) =>
  [...list].sort(
    (a, b) => Date.parse(b.occurredAt) - Date.parse(a.occurredAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

/** The spool key a batch of new events gets, up to its digest: `audit/push-<oldest ms>-<newest ms>-`. */
const spanKey = (list: readonly WireEvent[]) => {
  const ms = list.map((event) => Date.parse(event.occurredAt));
  const pad = (n: number) => String(n).padStart(13, '0');
  return `audit/push-${pad(Math.min(...ms))}-${pad(Math.max(...ms))}-`;
};

const ndjson = (list: readonly WireEvent[]) => list.map((event) => `${JSON.stringify(event)}\n`).join('');

/** One signed NDJSON push of `list`: its status and answer. */
async function push(receiver: AuditReceiver, list: readonly WireEvent[], id: string) {
  const body = ndjson(list);
  const res = await fetch(receiver.url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-ndjson', ...sign(body, id) },
  });
  return { status: res.status, json: await res.json() };
}

/** What `GET /healthz` answers over HTTP. */
async function healthz(receiver: AuditReceiver) {
  const res = await fetch(new URL(RECEIVE_HEALTH_PATH, receiver.url));
  expect(res.status).toBe(200);
  return res.json();
}

/** GetObjectRetention of `key`: its mode, or the error's name (`NoSuchObjectLockConfiguration`: none). */
async function retentionOf(key: string): Promise<string | undefined> {
  const client = s3.client();
  try {
    return (await client.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key }))).Retention?.Mode;
  } catch (error) {
    return (error as S3ServiceException).name;
  } finally {
    client.destroy();
  }
}

describe('a receiver writing into a bucket spools each delivered event once, and a restarted one goes on from the spool', () => {
  it('writes spool objects under the prefix, counts them in its health, and dedupes after a restart', async () => {
    await s3.createBucket(bucket);
    const first = await receive();
    const counters = await pushLossily(first, 400);
    expect(counters).toMatchObject({ queued: 0, failedAttempts: 0 }); // every batch answered 2xx first time
    expect(counters?.duplicated).toBeGreaterThan(0);
    const keys = await spoolKeys();
    expect(keys.length).toBeGreaterThan(0);
    const objects = await s3.objects(bucket);
    const lines = keys.flatMap((key) => (objects.get(key) as Buffer).toString('utf8').trim().split('\n'));
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length); // no event twice across the spool
    const health = await first.health();
    expect(health.backlog).toEqual({ objects: keys.length, events: ids.length });
    expect(health).toMatchObject({ refused: 0, spooled: ids.length, duplicates: counters?.duplicated });
    expect(ids.length).toBe(400 - (counters?.dropped ?? 0));

    // A second receiver on the same bucket (a restart) holds those ids: the same events again are duplicates.
    await first.close();
    receivers.splice(receivers.indexOf(first), 1);
    const second = await receive();
    const again = lines.slice(0, 5).join('\n');
    const res = await fetch(second.url, { method: 'POST', body: again, headers: sign(again, 'msg_again') });
    expect(await res.json()).toEqual({ received: 5, spooled: 0, duplicates: 5 });
    expect(await spoolKeys()).toEqual(keys);
  });

  it('signed batches, one out of order and one sent twice: each 200, one object per batch with new events, named by their span and holding their lines; a restart dedupes', async () => {
    await s3.createBucket(bucket);
    server().admin.addAuditEvents({
      count: 12,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const ev = await oldestFirst();
    const [newer, older, overlap] = [ev.slice(6, 10), ev.slice(0, 4), ev.slice(3, 6)];
    const first = await receive();
    expect(await push(first, newer, 'msg_newer')).toEqual({
      status: 200,
      json: { received: 4, spooled: 4, duplicates: 0 },
    });
    // Older than what came before, and newest first inside the body: the spool orders it anyway.
    expect(await push(first, [...older].reverse(), 'msg_older')).toEqual({
      status: 200,
      json: { received: 4, spooled: 4, duplicates: 0 },
    });
    expect(await push(first, newer, 'msg_newer_again')).toEqual({
      status: 200,
      json: { received: 4, spooled: 0, duplicates: 4 },
    });
    expect(await push(first, overlap, 'msg_overlap')).toEqual({
      status: 200,
      json: { received: 3, spooled: 2, duplicates: 1 },
    });

    const objects = await s3.objects(bucket);
    const keys = await spoolKeys();
    expect([...objects.keys()].filter((key) => key.includes('push-'))).toEqual(keys); // all under the prefix
    const expected = [newer, older, ev.slice(4, 6)].map((list) => ({
      span: spanKey(list),
      body: ndjson(newestFirst(list)),
    }));
    expect(keys).toHaveLength(expected.length);
    for (const { span, body } of expected) {
      const key = keys.find((k) => k.startsWith(span));
      expect(key, span).toBeDefined();
      expect((objects.get(key as string) as Buffer).toString('utf8')).toBe(body);
    }
    expect(await healthz(first)).toEqual({
      status: 'ok',
      startedAt: iso(T0),
      accepted: 4,
      refused: 0,
      spooled: 10,
      duplicates: 5,
      lastPushAt: iso(T0),
      lastEventAt: iso(Date.parse((ev[9] as WireEvent).occurredAt)),
      backlog: { objects: 3, events: 10 },
    });

    await first.close();
    receivers.splice(receivers.indexOf(first), 1);
    const second = await receive();
    expect(await healthz(second)).toMatchObject({
      accepted: 0,
      spooled: 0,
      backlog: { objects: 3, events: 10 },
    });
    expect(await push(second, newer, 'msg_newer_after_restart')).toEqual({
      status: 200,
      json: { received: 4, spooled: 0, duplicates: 4 },
    });
    expect(await push(second, overlap, 'msg_overlap_after_restart')).toEqual({
      status: 200,
      json: { received: 3, spooled: 0, duplicates: 3 },
    });
    expect(await spoolKeys()).toEqual(keys);
    expect(await healthz(second)).toMatchObject({
      accepted: 2,
      refused: 0,
      spooled: 0,
      duplicates: 7,
      lastEventAt: null,
      backlog: { objects: 3, events: 10 },
    });
  });
});

describe('sync over a bucket the receiver wrote reconciles the spool and removes it, Object Lock or not', () => {
  for (const locked of [false, true]) {
    it(`every pulled event once, the spool confirmed and removed, verify whole${locked ? ' (Object Lock, --retain-days 30)' : ''}`, async () => {
      await s3.createBucket(bucket, { objectLock: locked });
      const extra = locked ? { retainDays: 30 } : {};
      const receiver = await receive(extra);
      await pushLossily(receiver, 300);
      const spooled = (await receiver.health()).backlog.events;
      expect(spooled).toBeGreaterThan(0);
      const keys = await spoolKeys();
      // With retention every other object could not be deleted before its date: the spool must be.
      if (locked)
        for (const key of keys) expect(await retentionOf(key), key).toBe('NoSuchObjectLockConfiguration');
      server().admin.advanceClock(HOUR);
      const result = await syncAuditArchive(client.audit, {
        dir: url(),
        s3: settings(extra),
        workDir: freshWork(),
        since: iso(T0 - 3 * HOUR),
      });
      expect(result.push).toMatchObject({
        pushed: spooled,
        confirmed: spooled,
        unconfirmed: 0,
        differing: 0,
      });
      expect(result.push?.fetched).toBe(300 - spooled);
      expect(result.conflictsFile).toBeNull();
      expect(await spoolKeys()).toEqual([]);
      const manifestKey = `audit/${result.manifest}`;
      const manifest = JSON.parse(((await s3.objects(bucket)).get(manifestKey) as Buffer).toString('utf8'));
      expect(manifest.push).toEqual(result.push);
      expect(manifest.push).toMatchObject({ pushed: spooled, confirmed: spooled, carried: [] });
      expect([...manifest.push.objects].sort()).toEqual(keys.map((key) => key.slice('audit/'.length)).sort());
      if (locked) expect(await retentionOf(manifestKey)).toBe('GOVERNANCE');
      const verify = await verifyAuditArchive(url(), { s3: settings() });
      expect(verify.ok).toBe(true);
      expect(verify.events).toBe(300);
      expect((await listAuditGaps(url(), { s3: settings() })).gaps).toEqual([]);
      const api = (await readAll(server().url, { from: iso(T0 - 3 * HOUR), to: iso(T0) })).events;
      expect(api).toHaveLength(300);
    });
  }
});

/** Standard Webhooks headers for `body` as delivery `id`, signed now by the server's clock. */
function sign(body: string, id: string): Record<string, string> {
  const at = new Date(server().admin.now());
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign(id, at, body),
  };
}
