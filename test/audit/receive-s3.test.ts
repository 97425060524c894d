import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import {
  type AuditReceiver,
  listAuditGaps,
  startAuditReceiver,
  syncAuditArchive,
  verifyAuditArchive,
} from '../../src/node/index.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR, readAll } from './helpers.js';

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

const settings = (extra: Partial<S3StoreSettings> = {}): S3StoreSettings => ({
  endpoint: s3.endpoint,
  region: s3.region,
  credentials: s3.credentials,
  ...extra,
});
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
}

describe('a receiver writing into a bucket spools each delivered event once, and a restarted one goes on from the spool', () => {
  it('writes spool objects under the prefix, counts them in its health, and dedupes after a restart', async () => {
    await s3.createBucket(bucket);
    const first = await receive();
    await pushLossily(first, 400);
    const keys = await spoolKeys();
    expect(keys.length).toBeGreaterThan(0);
    const objects = await s3.objects(bucket);
    const lines = keys.flatMap((key) => (objects.get(key) as Buffer).toString('utf8').trim().split('\n'));
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length); // no event twice across the spool
    const health = await first.health();
    expect(health.backlog).toEqual({ objects: keys.length, events: ids.length });
    expect(health.duplicates).toBeGreaterThan(0);

    // A second receiver on the same bucket (a restart) holds those ids: the same events again are duplicates.
    await first.close();
    receivers.splice(receivers.indexOf(first), 1);
    const second = await receive();
    const again = lines.slice(0, 5).join('\n');
    const res = await fetch(second.url, { method: 'POST', body: again, headers: sign(again) });
    expect(await res.json()).toEqual({ received: 5, spooled: 0, duplicates: 5 });
    expect(await spoolKeys()).toEqual(keys);
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
      const verify = await verifyAuditArchive(url(), { s3: settings() });
      expect(verify.ok).toBe(true);
      expect(verify.events).toBe(300);
      expect((await listAuditGaps(url(), { s3: settings() })).gaps).toEqual([]);
      const api = (await readAll(server().url, { from: iso(T0 - 3 * HOUR), to: iso(T0) })).events;
      expect(api).toHaveLength(300);
    });
  }
});

/** Standard Webhooks headers for `body`, signed now by the server's clock. */
function sign(body: string): Record<string, string> {
  const at = new Date(server().admin.now());
  const id = `msg_s3_${body.length}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign(id, at, body),
  };
}
