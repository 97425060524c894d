import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openArchiveStore } from '../../src/node/audit-store/open-store.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
let s3: S3TestServer;
let bucket: string;
let bucketN = 0;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(async () => {
  bucket = `lock-${++bucketN}`;
  await s3.createBucket(bucket);
});

/** A run's view of the archive: its own clock, and its renewal fired by the test instead of a timer. */
function run(clock: { now: number }, extra: Partial<S3StoreSettings> = {}) {
  const ticks: Array<{ everyMs: number; task: () => Promise<void>; stopped: boolean }> = [];
  const warnings: string[] = [];
  const settings: S3StoreSettings = {
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    now: () => clock.now,
    schedule: (everyMs, task) => {
      const tick = { everyMs, task, stopped: false };
      ticks.push(tick);
      return () => {
        tick.stopped = true;
      };
    },
    onWarning: (line) => warnings.push(line),
    ...extra,
  };
  const open = () => openArchiveStore(`s3://${bucket}/audit`, { s3: settings });
  return {
    ticks,
    warnings,
    lock: async () => (await open()).lock(),
    /** Fires the renewal as its timer would, and waits until it is done (a read and a write). */
    renew: async () => {
      for (const tick of ticks) if (!tick.stopped) await tick.task();
    },
  };
}

/** The lock object as stored. */
async function lockBody(): Promise<{ token: string; expires: string } | undefined> {
  const text = (await s3.objects(bucket)).get('audit/sync.lock')?.toString('utf8');
  return text === undefined ? undefined : (JSON.parse(text) as { token: string; expires: string });
}

describe('the lock lives 15 minutes and is renewed every third of that while its run goes on', () => {
  it('schedules the renewal every 5 minutes by default, every third of lockTtlMs when set', async () => {
    const clock = { now: T0 };
    const plain = run(clock);
    const release = await plain.lock();
    expect(plain.ticks.map((t) => t.everyMs)).toEqual([5 * MINUTE]);
    expect((await lockBody())?.expires).toBe(new Date(T0 + 15 * MINUTE).toISOString());
    await release();
    const short = run(clock, { lockTtlMs: 90_000 });
    await (await short.lock())();
    expect(short.ticks.map((t) => t.everyMs)).toEqual([30_000]);
  });

  it('a renewal moves the expiry on, so a run longer than the lifetime keeps its lock', async () => {
    const clock = { now: T0 };
    const holder = run(clock);
    const release = await holder.lock();
    const first = await lockBody();
    // Two hours of work, renewed on schedule.
    for (let minute = 5; minute <= 120; minute += 5) {
      clock.now = T0 + minute * MINUTE;
      await holder.renew();
    }
    const renewed = await lockBody();
    expect(renewed?.token).toBe(first?.token);
    expect(renewed?.expires).toBe(new Date(T0 + 135 * MINUTE).toISOString());
    // Another run at 2 h, long after the first expiry, is refused: the lock is alive.
    const other = run(clock);
    const refused = (await other.lock().catch((e: unknown) => e)) as Error & { code?: string };
    expect(refused.code).toBe('locked');
    expect(refused.message).toContain(`until ${new Date(T0 + 135 * MINUTE).toISOString()}`);
    expect(holder.warnings).toEqual([]);
    await release();
    expect(await lockBody()).toBeUndefined();
  });

  it('a lock not renewed for its lifetime (its run was killed) is taken over by the next run', async () => {
    const clock = { now: T0 };
    const killed = run(clock);
    await killed.lock(); // never released, never renewed: the process is gone
    clock.now = T0 + 16 * MINUTE;
    const next = run(clock);
    const release = await next.lock();
    expect((await lockBody())?.expires).toBe(new Date(T0 + 31 * MINUTE).toISOString());
    await release();
  });
});

describe('a run whose lock is no longer its own says so once and leaves the lock to its holder', () => {
  it('a lock replaced by another run is not renewed over, nor removed at the end', async () => {
    const clock = { now: T0 };
    const stalled = run(clock);
    const release = await stalled.lock();
    const theirs = `${JSON.stringify({ token: 'other-run', host: 'runner-9', pid: 4, expires: new Date(T0 + 40 * MINUTE).toISOString() })}\n`;
    await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: 'audit/sync.lock', Body: theirs }));
    clock.now = T0 + 25 * MINUTE;
    await stalled.renew();
    await stalled.renew();
    await release();
    expect((await lockBody())?.token).toBe('other-run');
    expect(stalled.warnings).toHaveLength(1);
    expect(stalled.warnings[0]).toContain(`the lock s3://${bucket}/audit/sync.lock is no longer this run's`);
  });

  it('after its release a run renews nothing: the timer is stopped and the object stays gone', async () => {
    const clock = { now: T0 };
    const holder = run(clock);
    const release = await holder.lock();
    await release();
    expect(holder.ticks.every((t) => t.stopped)).toBe(true);
    for (const tick of holder.ticks) await tick.task();
    await release();
    expect(await lockBody()).toBeUndefined();
    expect(holder.warnings).toEqual([]);
  });
});

describe('a lock object that is not a lock body is an unknown holder, never taken over', () => {
  it.each([
    ['larger than a lock body (10 KB)', `{"pad":"${'x'.repeat(10_000)}"}`],
    ['not JSON', 'locked by hand'],
  ])('%s: refused, naming an unknown sync, and left as it is', async (_, body) => {
    await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: 'audit/sync.lock', Body: body }));
    const clock = { now: T0 + 365 * 24 * 60 * MINUTE };
    const refused = (await run(clock)
      .lock()
      .catch((e: unknown) => e)) as Error & { code?: string };
    expect(refused.code).toBe('locked');
    expect(refused.message).toContain('is locked by an unknown sync');
    expect((await s3.objects(bucket)).get('audit/sync.lock')?.toString('utf8')).toBe(body);
  });
});
