import { generateKeyPairSync } from 'node:crypto';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { copyAuditArchive } from '../../src/node/audit-archive/copy.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import { isArchiveObjectName } from '../../src/node/audit-store/layout.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// `svc audit copy` copies exactly the names of an archive's layout (fields.ts isArchiveObjectName):
// whatever else lies in the source (a signing key, `.env`, a planted `.bashrc`, `CON`, `.sync-work`,
// a `*.svc-tmp`, a key with a backslash) is left and named; a destination it refuses is left as it was.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
let s3: S3TestServer;
let dir: string;
let client: SvcClient;
let scratch: string;
let bucketNo = 0;
let bucket: string;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});
beforeEach(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-copy-names-'));
  scratch = mkdtempSync(join(tmpdir(), 'svc-copy-names-to-'));
  bucket = `names-${++bucketNo}`;
  await s3.createBucket(bucket);
});
const savedEnv = { ...process.env };
afterEach(async () => {
  process.env = { ...savedEnv };
  await dropScratch(dir, client);
  rmSync(scratch, { recursive: true, force: true });
});

const s3Options = () => ({
  s3: s3.storeSettings(),
});
/** An in-process `svc` run's environment: the AWS SDK reads its credentials from `process.env` (restored after each test). */
function cliEnv(): Record<string, string> {
  Object.assign(process.env, s3.env);
  return s3.env;
}
const sync = (into: string) =>
  syncAuditArchive(client.audit, { dir: into, since: iso(T0 - 3 * HOUR), signKey });

/** Two signed runs an hour apart; returns the head. */
async function twoRuns(): Promise<string> {
  server().admin.addAuditEvents({
    count: 200,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 + HOUR),
  });
  await sync(dir);
  server().admin.advanceClock(HOUR);
  return (await sync(dir)).head?.sha256 ?? '';
}

async function put(key: string, body: string): Promise<void> {
  const raw = s3.client();
  await raw.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  raw.destroy();
}

const folder = (path: string) => readdirSync(path).sort();
const bucketKeys = async () => [...(await s3.objects(bucket)).keys()];

async function verifies(where: string, head: string): Promise<void> {
  const result = await verifyAuditArchive(where, { ...s3Options(), head, publicKey: publicPem });
  expect([where, result.ok, result.problems]).toEqual([where, true, []]);
}

describe('isArchiveObjectName: only the layout names (manifests, data, conflicts, state) are an archive', () => {
  it('accepts what sync writes and nothing else', () => {
    for (const name of [
      'manifest-000001.json',
      'audit-000001.ndjson',
      'audit-000012.ndjson.gz',
      'conflicts-000003.ndjson',
      'sync-state.json',
    ])
      expect([name, isArchiveObjectName(name)]).toEqual([name, true]);
    for (const name of [
      'sign.pem',
      '.env',
      '.bashrc',
      '.sync-work',
      'sync.lock',
      'CON',
      'NUL',
      'COM1',
      'con.json',
      'manifest-000001.json.svc-tmp',
      'manifest-000001.json\n',
      'audit-000001.ndjson\\x',
      'a\\manifest-000001.json',
      'MANIFEST-000001.JSON',
      'manifest-1.json',
      `audit-${'1'.repeat(60)}.ndjson`,
      '',
    ])
      expect([name, isArchiveObjectName(name)]).toEqual([name, false]);
  });
});

describe('folder -> bucket: files that are not the archive are not uploaded, each named', () => {
  it('leaves sign.pem and .env in the folder, names them, and the bucket verifies', async () => {
    const head = await twoRuns();
    writeFileSync(join(dir, 'sign.pem'), signKey);
    writeFileSync(join(dir, '.env'), 'SVC_API_KEY=ak_secret_value\n');
    const run = await runSvc(['audit', 'copy', dir, `s3://${bucket}/up`], { env: cliEnv() });
    expect([run.code, run.stdout]).toEqual([0, `head sha256:${head} manifest-000002.json\n`]);
    expect(run.stderr).toMatch(/warning: not copied: \.env is not a name of an archive/);
    expect(run.stderr).toMatch(/warning: not copied: sign\.pem is not a name of an archive/);
    expect(run.stderr).not.toContain('ak_secret_value');
    const keys = await bucketKeys();
    expect(keys.some((key) => key.endsWith('sign.pem') || key.endsWith('.env'))).toBe(false);
    expect(keys.map((key) => key.slice('up/'.length)).sort()).toEqual(
      folder(dir).filter((name) => name !== 'sign.pem' && name !== '.env'),
    );
    await verifies(`s3://${bucket}/up`, head);

    const result = await copyAuditArchive(dir, join(scratch, 'twin'), s3Options());
    expect(result.skipped).toEqual(['.env', 'sign.pem']);
    expect(result.incomplete).toEqual([]);
  });
});

describe('bucket -> folder: planted keys are not written, each named, and the copy completes', () => {
  it('leaves .bashrc, CON, .sync-work, a *.svc-tmp, a backslash, a control character and a long name', async () => {
    const head = await twoRuns();
    await copyAuditArchive(dir, `s3://${bucket}/p`, s3Options());
    const planted = [
      '.bashrc',
      'CON',
      'NUL.txt',
      '.sync-work',
      'manifest-000001.json.svc-tmp',
      'audit-000001.ndjson\\..\\x',
      'manifest-000003.json\u001b[2J',
      `audit-${'0'.repeat(180)}1.ndjson`,
    ];
    for (const name of planted) await put(`p/${name}`, 'planted\n');
    const back = join(scratch, 'back');
    const run = await runSvc(['audit', 'copy', `s3://${bucket}/p`, back], { env: cliEnv() });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      0,
      `head sha256:${head} manifest-000002.json\n`,
      expect.stringContaining(`; ${planted.length} not copied (named above)`),
    ]);
    for (const name of ['.bashrc', 'CON', '.sync-work', 'manifest-000001.json.svc-tmp'])
      expect(run.stderr).toContain(`not copied: ${name} is not a name`);
    expect(run.stderr).toContain('not copied: audit-000001.ndjson\\..\\x is not a name');
    expect(run.stderr).toContain('not copied: manifest-000003.json\\x1b[2J is not a name');
    expect(run.stderr).not.toContain('\u001b');
    expect(folder(back)).toEqual(folder(dir));
    await verifies(back, head);
    // `.sync-work` as a file would have broken the next sync of the restored folder.
    server().admin.advanceClock(HOUR);
    expect((await sync(back)).head?.manifest).toBe('manifest-000003.json');

    // The planted `*.svc-tmp` was not copied, so a second copy of the same bucket has nothing to fail on.
    const twice = await copyAuditArchive(`s3://${bucket}/p`, join(scratch, 'again'), s3Options());
    expect(twice.skipped).toEqual([...planted].sort());
    expect(twice.head?.sha256).toBe(head);
  });
});

describe('a refused destination is left byte for byte and object for object as it was', () => {
  it('a folder: its files, its *.svc-tmp and no lock, exactly as before', async () => {
    await twoRuns();
    const target = join(scratch, 'taken');
    rmSync(target, { recursive: true, force: true });
    await copyAuditArchive(dir, target, s3Options());
    unlinkSync(join(target, 'sync-state.json'));
    writeFileSync(join(target, 'notes.txt'), 'mine\n');
    writeFileSync(join(target, 'audit-000003.ndjson.svc-tmp'), 'a killed run\n');
    const before = new Map(folder(target).map((name) => [name, readFileSync(join(target, name))]));
    const run = await runSvc(['audit', 'copy', dir, target]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^svc: .*is not empty: .*notes\.txt is not in /);
    expect(new Map(folder(target).map((name) => [name, readFileSync(join(target, name))]))).toEqual(before);
  });

  it('a bucket: its objects and its unfinished multipart upload; the copy only read it (no lock, no probe, no abort)', async () => {
    await twoRuns();
    await put('d/other-archive.json', '{}');
    await put('d/audit-000003.ndjson.svc-tmp', 'x');
    const raw = s3.client();
    await raw.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'd/audit-000009.ndjson' }));
    raw.destroy();
    const objects = await s3.objects(bucket);
    const uploads = await s3.uploads(bucket);
    expect(uploads).toHaveLength(1);
    // Every request the copy sends goes through a recording proxy: it may read the bucket, never write it.
    const proxy = await startS3FaultProxy({ target: s3.endpoint });
    const env = { ...cliEnv(), AWS_ENDPOINT_URL_S3: proxy.endpoint };
    const run = await runSvc(['audit', 'copy', dir, `s3://${bucket}/d`], { env });
    await proxy.close();
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(proxy.log.filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD')).toEqual([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /is not empty: s3:\/\/.*\/d\/(audit-000003\.ndjson\.svc-tmp|other-archive\.json)/,
    );
    expect(await s3.objects(bucket)).toEqual(objects);
    expect(await s3.uploads(bucket)).toEqual(uploads);
  });

  it('a bucket holding a key with a backslash: refused naming it, not a crash', async () => {
    await twoRuns();
    await put('b/manifest-000001.json\\x', '{}');
    const run = await runSvc(['audit', 'copy', dir, `s3://${bucket}/b`], { env: cliEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not empty: s3://');
    expect(run.stderr).toContain('manifest-000001.json\\\\x');
    expect(await bucketKeys()).toEqual(['b/manifest-000001.json\\x']);
  });
});

describe('an object of the archive the source refuses is named, the rest is copied, exit 5', () => {
  it('a data file that is a symbolic link: the others copied, it named, exit 5', async () => {
    const head = await twoRuns();
    symlinkSync(join(dir, 'audit-000001.ndjson'), join(dir, 'audit-000007.ndjson'));
    const target = join(scratch, 'linked');
    const run = await runSvc(['audit', 'copy', dir, target]);
    expect(run.code).toBe(5);
    expect(run.stdout).toBe(`head sha256:${head} manifest-000002.json\n`);
    expect(run.stderr).toContain(
      'not copied: audit-000007.ndjson, an object of the archive: not a regular file',
    );
    expect(run.stderr).toMatch(
      /warning: .*linked does not hold the whole archive: 1 of its objects not copied/,
    );
    expect(folder(target)).toEqual(folder(dir).filter((name) => name !== 'audit-000007.ndjson'));
    await verifies(target, head);
  });

  it('a data file replaced by a link during the copy: named, the copy goes on with the rest', async () => {
    await twoRuns();
    const swap = join(dir, 'audit-000002.ndjson');
    const result = await copyAuditArchive(dir, `s3://${bucket}/swap`, {
      ...s3Options(),
      onObject: (object) => {
        if (object.name !== 'audit-000001.ndjson') return;
        unlinkSync(swap);
        symlinkSync('/etc/passwd', swap);
      },
    });
    expect(result.incomplete).toEqual([
      { name: 'audit-000002.ndjson', reason: 'a symbolic link, not a regular file' },
    ]);
    expect(result.skipped).toEqual(['audit-000002.ndjson']);
    expect(result.copied.map((object) => object.name)).toEqual([
      'audit-000001.ndjson',
      'manifest-000001.json',
      'manifest-000002.json',
      'sync-state.json',
    ]);
  });
});
