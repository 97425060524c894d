import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { acknowledgeAuditGap, listAuditGaps } from '../../src/node/audit-archive/functions.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import type { SyncOptions, SyncResult } from '../../src/node/audit-sync/options.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let s3: S3TestServer;
let dir: string;
let client: SvcClient;
let bucketN = 0;
let bucket: string;
const scratch: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-s3-folder-'));
  bucket = `archive-${++bucketN}`;
  await s3.createBucket(bucket);
});
afterEach(async () => {
  await dropScratch(dir, client);
  for (const path of scratch.splice(0)) rmSync(path, { recursive: true, force: true });
});

const settings = (extra: Partial<S3StoreSettings> = {}) => s3.storeSettings(extra);
/** A fresh local work folder, as on a new machine. */
const freshWork = () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-s3-work-'));
  scratch.push(work);
  return work;
};
const add = (count: number, from: number, to: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });
const url = (prefix = 'audit') => `s3://${bucket}/${prefix}`;
const syncS3 = (options: Partial<SyncOptions> = {}, c: SvcClient = client) =>
  syncAuditArchive(c.audit, { dir: url(), s3: settings(), workDir: freshWork(), ...options });
const put = (key: string, body: Buffer | string) =>
  s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

/**
 * The environment of an in-process `svc` run against the S3 test server: the CLI's own variables
 * go in its io, and the AWS SDK reads its credentials from `process.env`, restored after each test.
 */
const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});
function cliEnv(): Record<string, string> {
  Object.assign(process.env, s3.env);
  return { ...s3.env, SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' };
}

/** Three nights into a bucket and into a folder, from the same events; the clock moves a day each night. */
async function threeNights(
  beforeNight: (night: number) => Promise<void> = async () => {},
): Promise<{ bucket: SyncResult[]; folder: SyncResult[] }> {
  const since = iso(T0 - 2 * HOUR);
  add(300, T0 - 2 * HOUR, T0 + 2 * 24 * HOUR);
  const runs = { bucket: [] as SyncResult[], folder: [] as SyncResult[] };
  for (let night = 0; night < 3; night++) {
    await beforeNight(night);
    runs.bucket.push(await syncS3({ since }));
    runs.folder.push(await syncAuditArchive(client.audit, { dir, since }));
    server().admin.advanceClock(24 * HOUR);
  }
  return runs;
}

describe('a bucket archive holds what a folder archive holds: same layout, chain and head', () => {
  it('three nights, each on a fresh work folder: one chain of 3 runs, verify --head whole, the folder head', async () => {
    const runs = await threeNights();
    expect(runs.bucket.map((r) => r.run)).toEqual([1, 2, 3]);
    const head = runs.bucket[2]?.head?.sha256 as string;
    expect(head).toBe(runs.folder[2]?.head?.sha256);
    const verified = await verifyAuditArchive(url(), { s3: settings(), head });
    expect(verified.problems).toEqual([]);
    expect(verified.runs).toBe(3);
    expect(verified.events).toBe((await verifyAuditArchive(dir)).events);
    // Object for object, byte for byte the folder's files (the lock and work folder are gone).
    const objects = await s3.objects(bucket);
    expect([...objects.keys()].sort()).toEqual(
      [
        'audit-000001.ndjson',
        'audit-000002.ndjson',
        'audit-000003.ndjson',
        'manifest-000001.json',
        'manifest-000002.json',
        'manifest-000003.json',
        'sync-state.json',
      ].map((name) => `audit/${name}`),
    );
    for (const [key, bytes] of objects)
      expect(bytes.equals(readFileSync(join(dir, key.slice('audit/'.length)))), key).toBe(true);
  });

  it('a bucket name S3 refuses or a prefix with .. is a config error before any request', async () => {
    for (const bad of ['s3://A_B/x', 's3://ab/../x', 's3:///x', 's3://bucket/a//b']) {
      const error = await syncAuditArchive(client.audit, { dir: bad, s3: settings() }).catch(
        (e: unknown) => e,
      );
      expect((error as { code?: string }).code, bad).toBe('config');
    }
  });
});

describe("faults of a real store: 503 SlowDown and resets are carried through by the SDK's retry", () => {
  it.each([1, 3])(
    'seed %i: a fifth of the answers 503 SlowDown, 1 in 20 requests reset before and 1 in 20 after the store took it: three runs, verify whole, the folder head',
    async (seed) => {
      const proxy = await startS3FaultProxy({
        target: s3.endpoint,
        slowDown: 0.2,
        resetBefore: 0.05,
        resetAfter: 0.05,
        seed,
      });
      try {
        const since = iso(T0 - 2 * HOUR);
        add(300, T0 - 2 * HOUR, T0 + 2 * 24 * HOUR);
        let last: SyncResult | undefined;
        let folder: SyncResult | undefined;
        for (let night = 0; night < 3; night++) {
          last = await syncS3({ since, s3: settings({ endpoint: proxy.endpoint }) });
          folder = await syncAuditArchive(client.audit, { dir, since });
          server().admin.advanceClock(24 * HOUR);
        }
        expect(last?.head).toEqual(folder?.head);
        const verified = await verifyAuditArchive(url(), {
          s3: settings(),
          head: last?.head?.sha256 as string,
        });
        expect(verified.problems).toEqual([]);
        expect(proxy.log.filter((e) => e.outcome !== 'forwarded').length).toBeGreaterThan(5);
        expect(await s3.uploads(bucket)).toEqual([]);
        expect((await s3.objects(bucket)).has('audit/sync.lock')).toBe(false);
      } finally {
        await proxy.close();
      }
    },
  );
});

describe('expired credentials mid-run leave the archive whole and resumable', () => {
  it('ExpiredToken to the manifest: one line naming it, no manifest; the next run with fresh credentials finishes it', async () => {
    add(100, T0 - 2 * HOUR, T0 - HOUR);
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      answers: [{ fixture: 'expired-token', method: 'PUT', path: /manifest-000001\.json$/ }],
    });
    const work = freshWork();
    try {
      const error = (await syncS3({ workDir: work, s3: settings({ endpoint: proxy.endpoint }) }).catch(
        (e: unknown) => e,
      )) as Error & { code: string };
      expect(error.code).toBe('io');
      expect(error.message).toBe(
        `s3://${bucket}/audit/manifest-000001.json: the store refused the credentials (ExpiredToken); the archive is whole: run again with valid credentials to continue`,
      );
    } finally {
      await proxy.close();
    }
    expect([...(await s3.objects(bucket)).keys()].filter((k) => k.includes('manifest-'))).toEqual([]);
    // The lock of the failed run was released: the next run needs no waiting.
    expect((await s3.objects(bucket)).has('audit/sync.lock')).toBe(false);
    const next = await syncS3();
    expect(next.status).toBe('synced');
    expect(next.resumed).toBe(true);
    expect(next.events).toBe(100);
    expect((await verifyAuditArchive(url(), { s3: settings() })).problems).toEqual([]);
  });

  it('interrupted during its upload: the multipart upload is aborted, the next run resumes it', async () => {
    add(3000, T0 - 2 * HOUR, T0 - HOUR);
    const proxy = await startS3FaultProxy({ target: s3.endpoint });
    const stop = new AbortController();
    const watch = setInterval(() => {
      if (proxy.log.some((e) => e.method === 'PUT' && e.path.endsWith('/audit-000001.ndjson'))) stop.abort();
    }, 1);
    try {
      const error = await syncS3({ signal: stop.signal, s3: settings({ endpoint: proxy.endpoint }) }).catch(
        (e: unknown) => e,
      );
      expect((error as Error).name).toBe('AbortError');
    } finally {
      clearInterval(watch);
      await proxy.close();
    }
    expect(await s3.uploads(bucket)).toEqual([]);
    const next = await syncS3();
    expect(next.resumed).toBe(true);
    expect(next.events).toBe(3000);
  });
});

describe('the state is an object of its own, rebuilt from the manifests when missing', () => {
  it('the state object deleted before night 3 and before night 2: the runs and the state are the folder archive byte for byte', async () => {
    // Late events inside the overlap, so the rebuilt window and ranges are put to the test.
    const lost = async (night: number) => {
      if (night === 0) return;
      add(3, T0 + (night - 1) * 24 * HOUR - 8 * 60_000, T0 + (night - 1) * 24 * HOUR - 7 * 60_000);
      await s3.client().send(new DeleteObjectCommand({ Bucket: bucket, Key: 'audit/sync-state.json' }));
    };
    const runs = await threeNights(lost);
    expect(runs.bucket.map((r) => r.status)).toEqual(['synced', 'synced', 'synced']);
    expect(runs.bucket[2]?.head).toEqual(runs.folder[2]?.head);
    const objects = await s3.objects(bucket);
    for (const [key, bytes] of objects)
      expect(bytes.toString('utf8'), key).toBe(readFileSync(join(dir, key.slice('audit/'.length)), 'utf8'));
  });
});

describe('verify --require-retention fails where an object has no Object Lock retention', () => {
  it('on a store without Object Lock every manifest and file is named; on a folder too', async () => {
    add(20, T0 - 2 * HOUR, T0 - HOUR);
    await syncS3();
    await syncAuditArchive(client.audit, { dir });
    for (const [where, options] of [
      [url(), { s3: settings() }],
      [dir, {}],
    ] as const) {
      const result = await verifyAuditArchive(where, { ...options, requireRetention: { days: 30 } });
      expect(result.ok, where).toBe(false);
      expect(result.problems.filter((p) => p.kind === 'retention').map((p) => p.file)).toEqual([
        'manifest-000001.json',
        'audit-000001.ndjson',
      ]);
    }
  });

  it('objects written with --retain-days 30 pass --require-retention 29 and fail 31 (a bucket with Object Lock)', async () => {
    add(30, T0 - 2 * HOUR, T0 - HOUR);
    const locked = `locked-${bucketN}`;
    await s3.createBucket(locked, { objectLock: true });
    const where = `s3://${locked}/audit`;
    const env = cliEnv();
    const sync = await runSvc(
      ['audit', 'sync', '--dir', where, '--work-dir', freshWork(), '--retain-days', '30'],
      {
        env,
      },
    );
    expect(sync.code, sync.stderr).toBe(0);
    const kept = await runSvc(['audit', 'verify', where, '--require-retention', '29'], { env });
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);
    const short = await runSvc(['audit', 'verify', where, '--require-retention', '31'], { env });
    expect(short.code).toBe(1);
    const lines = short.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(':')[0])).toEqual(['manifest-000001.json', 'audit-000001.ndjson']);
    expect(lines[0]).toMatch(/retention \(governance\) ends .*, sooner than the 31 days asked$/);
  });

  it('--retain-days on a bucket without Object Lock stops with one line naming it, exit 1', async () => {
    add(5, T0 - 2 * HOUR, T0 - HOUR);
    const env = cliEnv();
    const run = await runSvc(
      ['audit', 'sync', '--dir', url(), '--work-dir', freshWork(), '--retain-days', '30'],
      {
        env,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('Object Lock');
  });
});

describe('wherever an archive directory is taken, s3:// works: --projects entries and gaps', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  it('svc audit sync --projects with a bucket entry and a folder entry; gaps on the bucket', async () => {
    add(40, T0 - 2 * HOUR, T0 - HOUR);
    // The SDK reads its credentials from the process environment; the CLI's own settings come from `env`.
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
    const file = join(freshWork(), 'projects.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'bucket', dir: url('shop'), keyEnv: 'SVC_KEY_A' },
        { name: 'folder', dir: join(dir, 'shop'), keyEnv: 'SVC_KEY_B' },
      ]),
    );
    const env = {
      ...s3.env,
      SVC_KEY_A: 'ak_demo_project',
      SVC_KEY_B: 'ak_demo_project',
      TMPDIR: freshWork(),
    };
    const run = await runSvc(['audit', 'sync', '--projects', file, '--base-url', server().url], { env });
    expect(run.code, run.stderr).toBe(0);
    const heads = run.stdout.trim().split('\n').sort();
    expect(heads).toHaveLength(2);
    expect(heads[0]?.replace(/ bucket$/, '')).toBe(heads[1]?.replace(/ folder$/, ''));
    const gaps = await runSvc(['audit', 'gaps', '--dir', url('shop')], { env });
    expect(gaps.code).toBe(0);
    expect(gaps.stderr.trim()).toBe('0 gaps recorded, 0 open');
  });
});

describe('gaps, gaps ack and --backfill on a bucket: the same runs as on a folder', () => {
  it('late events make a gap; backfill repairs it; a later gap acknowledged; the bucket ends at the folder head', async () => {
    const MIN = 60_000;
    const both = async (options: Partial<SyncOptions> = {}) => {
      const bucketRun = await syncS3(options);
      const folderRun = await syncAuditArchive(client.audit, { dir, ...options });
      expect(bucketRun.head).toEqual(folderRun.head);
      return bucketRun;
    };
    add(20, T0 - HOUR, T0 - 10 * MIN);
    await both({ since: iso(T0 - 2 * HOUR) });
    server().admin.advanceClock(HOUR);
    add(2, T0 - 45 * MIN, T0 - 44 * MIN);
    expect((await both()).lateEvents).toHaveLength(1);
    const { gaps, leftovers } = await listAuditGaps(url(), { s3: settings() });
    expect(gaps.map((g) => `${g.id} ${g.status}`)).toEqual(['run2.late1 open']);
    expect(leftovers).toEqual([]);
    const repaired = await both({ backfill: true });
    expect(repaired.repaired).toEqual(['run2.late1']);
    server().admin.advanceClock(HOUR);
    add(1, T0 + 15 * MIN, T0 + 15 * MIN);
    expect((await both()).lateEvents).toHaveLength(1);
    const at = () => T0;
    await acknowledgeAuditGap(url(), 'run4.late1', 'checked by hand', at, { s3: settings() });
    await acknowledgeAuditGap(dir, 'run4.late1', 'checked by hand', at);
    server().admin.advanceClock(HOUR);
    const last = await both();
    expect(last.acknowledged).toEqual(['run4.late1']);
    const verified = await verifyAuditArchive(url(), { s3: settings(), head: last.head?.sha256 as string });
    expect(verified.problems).toEqual([]);
    expect(verified.runs).toBe(5);
  });
});

describe('tampering in the bucket is caught by verify, naming the object', () => {
  let head: string;
  beforeEach(async () => {
    head = (await threeNights()).bucket[2]?.head?.sha256 as string;
  });
  const verify = () => verifyAuditArchive(url(), { s3: settings(), head });

  it('an event line changed', async () => {
    const key = 'audit/audit-000002.ndjson';
    const bytes = (await s3.objects(bucket)).get(key) as Buffer;
    // Same size, other content (a longer object is another rule: test/security/archive-bombs).
    await put(
      key,
      bytes.toString('utf8').replace(/"id":"(.)/, (_m, c: string) => `"id":"${c === 'x' ? 'y' : 'x'}`),
    );
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.message)).toContain(
      'audit-000002.ndjson: sha256 or size differs from manifest-000002.json',
    );
    // The CLI: exit 1, the line on stdout (the SDK reads its credentials from the process environment).
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    });
    try {
      const run = await runSvc(['audit', 'verify', url(), '--head', head], { env: s3.env });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('audit-000002.ndjson: sha256 or size differs from manifest-000002.json\n');
    } finally {
      process.env = saved;
    }
  });

  it('a data object deleted', async () => {
    await s3.client().send(new DeleteObjectCommand({ Bucket: bucket, Key: 'audit/audit-000001.ndjson' }));
    const result = await verify();
    expect(result.problems.map((p) => p.message)).toContain(
      'audit-000001.ndjson: missing (listed in manifest-000001.json)',
    );
  });

  it('the newest manifest deleted (with --head)', async () => {
    await s3.client().send(new DeleteObjectCommand({ Bucket: bucket, Key: 'audit/manifest-000003.json' }));
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => p.kind)).toContain('head-mismatch');
    expect(result.problems.map((p) => p.file)).toContain('manifest-000003.json');
  });

  it('a manifest replaced by an older one', async () => {
    const objects = await s3.objects(bucket);
    await put('audit/manifest-000002.json', objects.get('audit/manifest-000001.json') as Buffer);
    const result = await verify();
    expect(result.ok).toBe(false);
    const messages = result.problems.map((p) => p.message);
    expect(messages).toContain('manifest-000002.json: names run 1, expected 2');
    expect(messages).toContain(
      'manifest-000003.json: does not match the sha256 of manifest-000002.json (it was changed or replaced)',
    );
  });
});

describe('two syncs started together on an empty state: one archive run, the other refused', () => {
  it('on a store honouring If-None-Match: one run, one locked error, verify whole', async () => {
    add(200, T0 - 2 * HOUR, T0 - HOUR);
    const other = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    try {
      const ended = await Promise.allSettled([syncS3({}, client), syncS3({}, other)]);
      const done = ended.filter((e) => e.status === 'fulfilled');
      const refused = ended.filter((e): e is PromiseRejectedResult => e.status === 'rejected');
      expect(done).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]?.reason.code).toBe('locked');
      expect(refused[0]?.reason.message).toMatch(/^s3:\/\/archive-\d+\/audit is locked by a sync on /);
    } finally {
      await other.close();
    }
    const verified = await verifyAuditArchive(url(), { s3: settings() });
    expect(verified.problems).toEqual([]);
    expect(verified.runs).toBe(1);
  });

  it('on a store ignoring If-None-Match: one warning naming it, and verify still whole', async () => {
    const loose = await startS3Server({ conditionalWrites: false });
    try {
      await loose.createBucket(bucket);
      add(200, T0 - 2 * HOUR, T0 - HOUR);
      const warnings: string[] = [];
      const s3Loose = { endpoint: loose.endpoint, region: loose.region, credentials: loose.credentials };
      const other = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
      const go = (c: SvcClient) =>
        syncAuditArchive(c.audit, {
          dir: url(),
          workDir: freshWork(),
          s3: { ...s3Loose, onWarning: (line) => warnings.push(line) },
        });
      try {
        await Promise.allSettled([go(client), go(other)]);
      } finally {
        await other.close();
      }
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings[0]).toBe(
        `${loose.endpoint} (bucket ${bucket}) ignores If-None-Match: a second sync at the same time is not refused; svc audit verify finds a replaced manifest afterwards`,
      );
      const verified = await verifyAuditArchive(url(), { s3: s3Loose });
      expect(verified.problems).toEqual([]);
    } finally {
      await loose.close();
    }
  });
});

describe('an expired lock is taken over by exactly one run', () => {
  // The takeover's exclusivity rests on If-Match, which the test server honours as S3 does (s3rver
  // alone ignores it); the store's real 412 answer is also tested in s3-answers.test.ts.
  it('of three runs meeting a lock whose expiry passed, one runs and two are refused', async () => {
    add(50, T0 - 2 * HOUR, T0 - HOUR);
    await put(
      'audit/sync.lock',
      `${JSON.stringify({ token: 'dead', host: 'gone-runner', pid: 1, expires: iso(Date.now() - 1000) })}\n`,
    );
    const clients = [1, 2, 3].map(() => new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' }));
    try {
      const ended = await Promise.allSettled(clients.map((c) => syncS3({}, c)));
      expect(ended.filter((e) => e.status === 'fulfilled')).toHaveLength(1);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect((await s3.objects(bucket)).has('audit/sync.lock')).toBe(false);
  });

  it('a lock of this host whose process is gone (killed) is taken over at once, as a folder lock is', async () => {
    add(10, T0 - 2 * HOUR, T0 - HOUR);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
    await put(
      'audit/sync.lock',
      `${JSON.stringify({ token: 'dead', host: hostname(), pid: gone, expires: iso(Date.now() + HOUR) })}\n`,
    );
    expect((await syncS3()).status).toBe('synced');
  });

  it('a lock not yet expired is refused, naming its host', async () => {
    await put(
      'audit/sync.lock',
      `${JSON.stringify({ token: 't', host: 'runner-7', pid: 1, expires: iso(Date.now() + HOUR) })}\n`,
    );
    const error = (await syncS3().catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('locked');
    expect(error.message).toContain('locked by a sync on runner-7 until');
  });
});
