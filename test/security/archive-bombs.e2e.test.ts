import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import {
  MAX_EVENT_LINE_BYTES,
  MIN_GZIP_INFLATED_BYTES,
  maxInflatedBytes,
} from '../../src/node/audit-archive/data-lines.js';
import { MAX_STATE_BYTES } from '../../src/node/audit-archive/state.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import type { SyncOptions } from '../../src/node/audit-sync/options.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { ensureBuilt, type MeasuredRun, runSvcMeasured } from '../helpers/built-cli.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { forgeDataFile, forgeManifest, writeGzipBomb } from './archive-forgery.js';

// Issue 40: bombs and lies in the files a manifest lists. A forger with write access replaces a
// data file and rewrites the manifests so the chain still links; the built CLI meets each with one
// line naming the file, exit 1, no stack trace, and a bounded peak RSS.

const RSS_LIMIT_MB = 200;
const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const DATA = 'audit-000001.ndjson.gz';

const server = useReferenceServer();
let root: string;
let dir: string;
let client: SvcClient;
let s3: S3TestServer;
let cases = 0;
/** Peak RSS per case, printed at the end for the report. */
const peaks: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-archive-bombs-'));
  s3 = await startS3Server();
}, 180_000);
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
  console.log(`peak RSS per case:\n${peaks.join('\n')}`);
});
beforeEach(() => {
  dir = join(root, `archive-${++cases}`);
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({
    count: 20,
    scope: 'project',
    from: iso(T0 - HOUR),
    to: iso(T0 - 10 * MIN),
  });
});
afterEach(async () => {
  await client.close();
});

const sync = (options: Partial<SyncOptions> = {}) =>
  syncAuditArchive(client.audit, { dir, since: iso(T0 - 2 * HOUR), gzip: true, ...options });

/** The built CLI on `args`, measured; the case's peak is kept for the report. */
async function svc(name: string, args: string[], env: Record<string, string> = {}): Promise<MeasuredRun> {
  const run = await runSvcMeasured(
    args,
    { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project', SVC_MAX_RETRIES: '0', ...env },
    root,
  );
  peaks.push(`${name}: ${run.peakMb.toFixed(1)} MB`);
  return run;
}

/** Exit 1, no stack trace, peak RSS under the limit. */
function expectFailedCleanly(run: MeasuredRun): void {
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.code).toBe(1);
  expect(run.peakMb).toBeLessThan(RSS_LIMIT_MB);
}

/** A command that stops: one line on stderr and nothing else. */
function expectOneLine(run: MeasuredRun): string {
  expectFailedCleanly(run);
  const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line !== '');
  expect(lines, `${run.stdout}${run.stderr}`).toHaveLength(1);
  return lines[0] as string;
}

/** `svc audit verify` finding one problem: its one line on stdout, the summary on stderr counting one. */
function expectOneProblem(run: MeasuredRun): string {
  expectFailedCleanly(run);
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  expect(lines, run.stdout).toHaveLength(1);
  expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^archive not whole: 1 problems in \d+ runs$/);
  return lines[0] as string;
}

describe('a data file is counted from its bytes: a line over 32 MiB is one problem naming the file', () => {
  it('a 2 GiB gzip bomb without a newline (listed with its real sha256): verify says so in one line', async () => {
    await sync();
    const size = writeGzipBomb(join(dir, DATA), 2048);
    expect(size).toBeLessThan(3 * 1024 * 1024);
    forgeDataFile(dir, 'manifest-000001.json', DATA);
    const run = await svc('verify, 2 GiB bomb', ['audit', 'verify', dir]);
    expect(expectOneProblem(run)).toBe(
      `${DATA}: cannot be counted: holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is) (listed in manifest-000001.json)`,
    );
  }, 120_000);

  it('the same bomb through the state rebuild (no sync-state.json): one line naming the file, nothing written', async () => {
    await sync();
    writeGzipBomb(join(dir, DATA), 2048);
    forgeDataFile(dir, 'manifest-000001.json', DATA);
    rmSync(join(dir, 'sync-state.json'));
    const before = readdirSync(dir).sort();
    const run = await svc('sync rebuild, 2 GiB bomb', ['audit', 'sync', '--dir', dir]);
    expect(expectOneLine(run)).toBe(
      `svc: ${join(dir, DATA)}: holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is); the sync state cannot be rebuilt from it`,
    );
    expect(readdirSync(dir).sort()).toEqual(before.filter((name) => name !== 'sync.lock'));
  }, 120_000);

  it('the same bomb where a backfill reads the archived events of a gap: one line naming the file', async () => {
    await sync();
    server().admin.advanceClock(HOUR);
    server().admin.addAuditEvents({
      count: 2,
      scope: 'project',
      from: iso(T0 - 45 * MIN),
      to: iso(T0 - 44 * MIN),
    });
    expect((await sync()).lateEvents).toHaveLength(1);
    writeGzipBomb(join(dir, DATA), 2048);
    forgeDataFile(dir, 'manifest-000001.json', DATA);
    const run = await svc('sync --backfill, 2 GiB bomb', ['audit', 'sync', '--dir', dir, '--backfill']);
    expect(expectOneLine(run)).toBe(
      `svc: ${join(dir, DATA)}: holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is); svc audit verify names what is wrong`,
    );
  }, 120_000);
});

describe('a .gz data file inflates to at most max(64 MiB, 100 times its size)', () => {
  it('a bomb of 1 MiB lines inflating to 1 GiB: verify stops at the inflated cap, one line naming it', async () => {
    await sync();
    const size = writeGzipBomb(join(dir, DATA), 1024, 1024 * 1024);
    forgeDataFile(dir, 'manifest-000001.json', DATA);
    const cap = maxInflatedBytes(size);
    expect(cap).toBeGreaterThanOrEqual(MIN_GZIP_INFLATED_BYTES);
    expect(cap).toBeLessThan(1024 * 1024 * 1024);
    const run = await svc('verify, 1 GiB of 1 MiB lines', ['audit', 'verify', dir]);
    expect(expectOneProblem(run)).toBe(
      `${DATA}: cannot be counted: inflates to more than ${cap} bytes (a gzip bomb?) (listed in manifest-000001.json)`,
    );
  }, 120_000);
});

describe('a manifest that lists a file more than once is not one sync writes', () => {
  it('one file listed 4,600 times: verify refuses the manifest in one line, never re-reads the file', async () => {
    await sync({ gzip: false });
    // Written compact, as the reproduction did, so it stays under the 1 MiB manifest cap.
    forgeManifest(
      dir,
      'manifest-000001.json',
      (m) => {
        m.files = Array.from({ length: 4600 }, () => m.files[0]);
      },
      { compact: true },
    );
    const run = await svc('verify, 4,600 listings', ['audit', 'verify', dir]);
    expect(expectOneProblem(run)).toBe(
      'manifest-000001.json: not a manifest sync writes (files: lists audit-000001.ndjson more than once)',
    );
    const verified = await verifyAuditArchive(dir);
    expect(verified.events).toBe(0);
    expect(verified.runs).toBe(0);
  }, 60_000);
});

describe('a listed object is read up to its listed size plus one byte: a longer one is longer than its manifest says', () => {
  it('in a folder: one line naming the file', async () => {
    const result = await sync({ gzip: false });
    const name = result.file as string;
    const listed = readFileSync(join(dir, name)).length;
    appendFileSync(join(dir, name), Buffer.alloc(8 * 1024 * 1024, 0x41));
    const run = await svc('verify, folder file 8 MiB longer', ['audit', 'verify', dir]);
    expect(expectOneProblem(run)).toBe(
      `${name}: longer than its manifest says (manifest-000001.json lists ${listed} bytes)`,
    );
  }, 60_000);

  it('in a bucket: the store served at most the listed size plus one byte of it', async () => {
    const bucket = `bombs-${cases}`;
    await s3.createBucket(bucket);
    const settings = s3.storeSettings();
    const url = `s3://${bucket}/audit`;
    const work = mkdtempSync(join(root, 'work-'));
    const result = await syncAuditArchive(client.audit, {
      dir: url,
      s3: settings,
      workDir: work,
      since: iso(T0 - 2 * HOUR),
    });
    const key = `audit/${result.file as string}`;
    const original = (await s3.objects(bucket)).get(key) as Buffer;
    const longer = Buffer.concat([original, Buffer.alloc(8 * 1024 * 1024, 0x41)]);
    await s3.client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: longer }));
    const servedBefore = s3.servedBytes(bucket, key);
    const run = await svc('verify, bucket object 8 MiB longer', ['audit', 'verify', url], {
      ...s3.env,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    expect(expectOneProblem(run)).toBe(
      `${result.file}: longer than its manifest says (manifest-000001.json lists ${original.length} bytes)`,
    );
    const served = s3.servedBytes(bucket, key) - servedBefore;
    peaks.push(`  served of the ${longer.length}-byte object listed as ${original.length}: ${served} bytes`);
    expect(served).toBeLessThanOrEqual(original.length + 1);
  }, 60_000);
});

describe('a sync state over 64 MiB is refused from its size before it is read', () => {
  it('in a folder: a sparse 1000 MB sync-state.json stops sync and gaps in one line', async () => {
    await sync();
    truncateSync(join(dir, 'sync-state.json'), 1000 * 1024 * 1024);
    const expected = `svc: ${join(dir, 'sync-state.json')}: larger than ${MAX_STATE_BYTES} bytes, not a sync state; remove it and the next sync rebuilds it from the manifests`;
    const synced = await svc('sync, 1000 MB state', ['audit', 'sync', '--dir', dir]);
    expect(expectOneLine(synced)).toBe(expected);
    const gaps = await svc('gaps, 1000 MB state', ['audit', 'gaps', '--dir', dir]);
    expect(expectOneLine(gaps)).toBe(expected);
  }, 60_000);

  it('in a bucket: a state object of 64 MiB + 1 byte is refused from its Content-Range, under 16 MiB of it served (128-320 KiB measured)', async () => {
    const bucket = `bombs-${cases}`;
    await s3.createBucket(bucket);
    const key = 'audit/sync-state.json';
    await s3
      .client()
      .send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(MAX_STATE_BYTES + 1, 0x20) }),
      );
    const run = await svc(
      'sync, bucket state 64 MiB + 1',
      ['audit', 'sync', '--dir', `s3://${bucket}/audit`],
      {
        ...s3.env,
        TMPDIR: mkdtempSync(join(root, 'tmp-')),
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    );
    expect(expectOneLine(run)).toBe(
      `svc: s3://${bucket}/${key}: larger than ${MAX_STATE_BYTES} bytes, not a sync state; remove it and the next sync rebuilds it from the manifests`,
    );
    peaks.push(`  served of the ${MAX_STATE_BYTES + 1}-byte state: ${s3.servedBytes(bucket, key)} bytes`);
    // What the test server read from s3rver before the client's close reached it: socket buffers
    // and read-ahead, 128-320 KiB on an idle machine, more on a loaded one; never the 64 MiB asked.
    expect(s3.servedBytes(bucket, key)).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});
