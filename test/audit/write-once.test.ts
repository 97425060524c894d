import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { AbortError } from '../../src/core/errors/index.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// The sync state is unsigned and, on R2, outside the lock rules: whatever it says, no object a
// manifest lists is replaced. Each rule on a folder archive and on a bucket archive.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const STATE = 'sync-state.json';
const WARNING =
  /^warning: .*sync-state\.json did not match the archive \(.+\): rebuilt from the manifests, nothing replaced$/;
let s3: S3TestServer;
let dir: string;
let client: SvcClient;
let bucketN = 0;
const scratch: string[] = [];
const savedEnv = { ...process.env };

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-write-once-'));
});
afterEach(async () => {
  process.env = { ...savedEnv };
  await dropScratch(dir, client);
  for (const path of scratch.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** One archive under test: where it is, how to read and write its objects behind the sync's back. */
interface Archive {
  location: string;
  flags: () => string[];
  env: Record<string, string>;
  read(name: string): Promise<Buffer | undefined>;
  write(name: string, bytes: Buffer | string): Promise<void>;
  names(): Promise<string[]>;
  settings?: S3StoreSettings;
}

const folder = (): Archive => ({
  location: dir,
  flags: () => [],
  env: {},
  read: async (name) => {
    try {
      return readFileSync(join(dir, name));
    } catch {
      return undefined;
    }
  },
  write: async (name, bytes) => writeFileSync(join(dir, name), bytes),
  names: async () => readdirSync(dir),
});

async function bucketArchive(): Promise<Archive> {
  const bucket = `write-once-${++bucketN}`;
  await s3.createBucket(bucket);
  // The SDK reads its credentials from the process environment (restored after each test).
  Object.assign(process.env, s3.env);
  const work = () => {
    const path = mkdtempSync(join(tmpdir(), 'svc-write-once-work-'));
    scratch.push(path);
    return path;
  };
  const key = (name: string) => `audit/${name}`;
  return {
    location: `s3://${bucket}/audit`,
    flags: () => ['--work-dir', work()],
    env: s3.env,
    read: async (name) => (await s3.objects(bucket)).get(key(name)),
    write: async (name, bytes) => {
      await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: key(name), Body: bytes }));
    },
    names: async () => [...(await s3.objects(bucket)).keys()].map((k) => k.slice('audit/'.length)),
    settings: s3.storeSettings(),
  };
}

const STORES: Array<{ store: string; open: () => Promise<Archive> }> = [
  { store: 'folder', open: async () => folder() },
  { store: 'bucket', open: bucketArchive },
];

const add = (count: number, from: number, to: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });
const sha = (bytes: Buffer | undefined) =>
  bytes ? createHash('sha256').update(bytes).digest('hex') : 'absent';

/** `svc audit sync` of the archive, in-process; the clock moves an hour after it. */
async function sync(archive: Archive, ...extra: string[]) {
  const run = await runSvc(
    ['audit', 'sync', '--dir', archive.location, '--base-url', server().url, ...archive.flags(), ...extra],
    { env: { ...archive.env, SVC_API_KEY: 'ak_demo_project' } },
  );
  server().admin.advanceClock(HOUR);
  return { ...run, warnings: run.stderr.split('\n').filter((line) => line.startsWith('warning: ')) };
}

/** `runs` runs an hour apart over 300 events (the server returns those up to its now); then 5 arrive late in the last run's overlap. */
async function archiveOf(archive: Archive, runs: number): Promise<void> {
  add(300, T0 - 2 * HOUR, T0 + 4 * HOUR);
  for (let run = 1; run <= runs; run++) {
    const done = await sync(archive, ...(run === 1 ? ['--since', iso(T0 - 3 * HOUR)] : []));
    expect(done.code, done.stderr).toBe(0);
  }
  // Late events in the newest run's range: a re-export of that run would not give its bytes again.
  add(5, T0 + (runs - 1) * HOUR - 8 * MIN, T0 + (runs - 1) * HOUR - 7 * MIN);
}

/** The sha256 of every object but the state and the lock, by name. */
async function digests(archive: Archive): Promise<Map<string, string>> {
  const names = (await archive.names()).filter((n) => n !== STATE && n !== 'sync.lock' && !n.startsWith('.'));
  return new Map(await Promise.all(names.map(async (n) => [n, sha(await archive.read(n))] as const)));
}

async function state(archive: Archive): Promise<Record<string, unknown>> {
  return JSON.parse(((await archive.read(STATE)) as Buffer).toString('utf8'));
}
async function manifest(archive: Archive, run: number) {
  const bytes = (await archive.read(`manifest-${String(run).padStart(6, '0')}.json`)) as Buffer;
  return { bytes, json: JSON.parse(bytes.toString('utf8')) };
}

/** The pending run sync would have written for `run`'s manifest: its range, query and server now. */
async function pendingLike(archive: Archive, run: number) {
  const { json } = await manifest(archive, run);
  return {
    run,
    from: json.range.from,
    to: json.range.to,
    queryFrom: json.query.from,
    serverNow: json.serverNow,
    gzip: false,
    retentionGap: null,
    lateEvents: [],
  };
}

async function editState(archive: Archive, edit: (s: Record<string, unknown>) => void): Promise<void> {
  const s = await state(archive);
  edit(s);
  await archive.write(STATE, `${JSON.stringify(s, null, 2)}\n`);
}

async function verified(archive: Archive) {
  const result = await verifyAuditArchive(archive.location, archive.settings ? { s3: archive.settings } : {});
  expect(result.problems).toEqual([]);
  return result;
}

/** Every object there before is there after with the same bytes. */
async function untouched(archive: Archive, before: Map<string, string>): Promise<void> {
  const after = await digests(archive);
  for (const [name, digest] of before) expect(after.get(name), name).toBe(digest);
}

describe.each(STORES)('a pending run that is not the next one is never taken over ($store)', ({ open }) => {
  it('pending run 1 on an archive holding run 1: audit-000001 byte-identical, one warning, run 2 written, verify whole', async () => {
    const archive = await open();
    await archiveOf(archive, 1);
    const before = await digests(archive);
    const data = sha(await archive.read('audit-000001.ndjson'));
    const pending = await pendingLike(archive, 1);
    await editState(archive, (s) => {
      s.pending = pending;
    });
    const run = await sync(archive);
    // Before the fix: replaced by a re-export of run 1, then "written by another sync meanwhile".
    expect(sha(await archive.read('audit-000001.ndjson'))).toBe(data);
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatch(WARNING);
    expect(run.warnings[0]).toContain('its pending run 1 is not the next run, 2');
    await untouched(archive, before);
    expect(run.stderr).toMatch(/run 2: \d+ events to audit-000002\.ndjson/);
    expect((await verified(archive)).runs).toBe(2);
  });

  it('pending run 5 on a 2-run archive: rebuilt, run 3 written, nothing replaced', async () => {
    const archive = await open();
    await archiveOf(archive, 2);
    const before = await digests(archive);
    const pending = { ...(await pendingLike(archive, 2)), run: 5 };
    await editState(archive, (s) => {
      s.pending = pending;
    });
    const run = await sync(archive);
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual([expect.stringContaining('its pending run 5 is not the next run, 3')]);
    await untouched(archive, before);
    expect(await archive.read('audit-000005.ndjson')).toBeUndefined();
    expect(run.stderr).toMatch(/run 3: \d+ events to audit-000003\.ndjson/);
    expect((await verified(archive)).runs).toBe(3);
  });

  it('pending run 2 whose manifest exists (the state one run behind): rebuilt, run 3 written, nothing replaced', async () => {
    const archive = await open();
    await archiveOf(archive, 2);
    const before = await digests(archive);
    const first = await manifest(archive, 1);
    const pending = await pendingLike(archive, 2);
    await editState(archive, (s) => {
      s.runs = 1;
      s.lastManifest = { name: 'manifest-000001.json', sha256: sha(first.bytes) };
      s.watermark = first.json.range.to;
      s.pending = pending;
    });
    const run = await sync(archive);
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatch(WARNING);
    await untouched(archive, before);
    expect(run.stderr).toMatch(/run 3: /);
    expect((await verified(archive)).runs).toBe(3);
  });

  it('a backfill pending run 1 on an archive holding run 1: --backfill replaces nothing, one warning', async () => {
    const archive = await open();
    await archiveOf(archive, 1);
    const before = await digests(archive);
    const pending = { ...(await pendingLike(archive, 1)), repairs: ['run1.late1'] };
    await editState(archive, (s) => {
      s.pending = pending;
    });
    const run = await sync(archive, '--backfill');
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual([expect.stringContaining('its pending run 1 is not the next run, 2')]);
    await untouched(archive, before);
    await verified(archive);
  });

  it('two syncs after the tampering both succeed; only the first warns', async () => {
    const archive = await open();
    await archiveOf(archive, 1);
    const before = await digests(archive);
    const pending = await pendingLike(archive, 1);
    await editState(archive, (s) => {
      s.pending = pending;
    });
    const first = await sync(archive);
    add(10, T0 + 80 * MIN, T0 + 90 * MIN);
    const second = await sync(archive);
    expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
    expect(first.warnings).toHaveLength(1);
    expect(second.warnings).toEqual([]);
    expect(second.stderr).toMatch(/run 3: /);
    await untouched(archive, before);
    expect((await verified(archive)).runs).toBe(3);
  });
});

describe.each(STORES)(
  'a state whose head is not the newest manifest is rebuilt, not followed ($store)',
  ({ open }) => {
    it('a digest of the head that is not the manifest: one warning, run 3 links the real manifest 2', async () => {
      const archive = await open();
      await archiveOf(archive, 2);
      const before = await digests(archive);
      await editState(archive, (s) => {
        s.lastManifest = { name: 'manifest-000002.json', sha256: '0'.repeat(64) };
      });
      const run = await sync(archive);
      expect(run.code, run.stderr).toBe(0);
      expect(run.warnings).toEqual([
        expect.stringContaining("its sha256 of manifest-000002.json is not that manifest's"),
      ]);
      await untouched(archive, before);
      expect((await manifest(archive, 3)).json.previous.sha256).toBe(before.get('manifest-000002.json'));
      await verified(archive);
    });

    it('--force with a state rolled back to empty: manifest 1 and its file are not replaced, run 3 written', async () => {
      const archive = await open();
      await archiveOf(archive, 2);
      const before = await digests(archive);
      await editState(archive, (s) => {
        Object.assign(s, {
          runs: 0,
          lastManifest: null,
          watermark: null,
          ranges: [],
          newest: null,
          pending: null,
        });
      });
      const run = await sync(archive, '--force', '--since', iso(T0 - 3 * HOUR));
      expect(run.code, run.stderr).toBe(0);
      expect(run.warnings).toEqual([
        expect.stringContaining('it counts 0 runs, the newest manifest is of run 2'),
      ]);
      await untouched(archive, before);
      expect(run.stderr).toMatch(/run 3: /);
      expect((await verified(archive)).runs).toBe(3);
    });

    it('a state that cannot be rebuilt (manifest 1 not one): one line, exit 1, nothing written', async () => {
      const archive = await open();
      await archiveOf(archive, 2);
      await archive.write('manifest-000001.json', 'not a manifest\n');
      await editState(archive, (s) => {
        s.runs = 7;
      });
      const before = await digests(archive);
      const run = await sync(archive, '--force');
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `svc: ${archive.location}: the manifests cannot be read as one chain, so the sync state cannot be rebuilt from them; nothing was written (svc audit verify ${archive.location} names what is wrong)`,
      ]);
      expect(await digests(archive)).toEqual(before);
    });
  },
);

describe.each(STORES)('the next run, interrupted, is still taken over and finished ($store)', ({ open }) => {
  it('pending run 3 on a 2-run archive, no manifest 3: resumed without a warning, its stale data file replaced', async () => {
    const archive = await open();
    await archiveOf(archive, 2);
    const before = await digests(archive);
    const controller = new AbortController();
    const stopped = syncAuditArchive(client.audit, {
      dir: archive.location,
      pageSize: 2,
      ...(archive.settings && { s3: archive.settings, workDir: archive.flags()[1] }),
      signal: controller.signal,
      onProgress: (p) => {
        if (p.pages === 2) controller.abort();
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(AbortError);
    expect(((await state(archive)).pending as { run: number }).run).toBe(3);
    // What a killed run's upload may have left: the run's own object, no manifest names it.
    await archive.write('audit-000003.ndjson', 'half a run\n');
    const run = await sync(archive);
    expect(run.code, run.stderr).toBe(0);
    expect(run.warnings).toEqual([]);
    expect(run.stderr).toMatch(/run 3 \(resumed\): /);
    expect((await archive.read('audit-000003.ndjson'))?.toString('utf8')).not.toBe('half a run\n');
    await untouched(archive, before);
    expect((await verified(archive)).runs).toBe(3);
  });
});
