import { generateKeyPairSync } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { AbortError, SvcError } from '../../src/core/errors/error-classes.js';
import { copyAuditArchive } from '../../src/node/audit-archive/copy.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// `svc audit copy` / copyAuditArchive (src/node/audit-archive/copy.ts): an archive moves between a
// folder and a bucket object for object, and `verify` gives the same head on both sides.

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
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-copy-'));
  scratch = mkdtempSync(join(tmpdir(), 'svc-audit-copy-to-'));
  bucket = `copy-${++bucketNo}`;
  await s3.createBucket(bucket);
});
afterEach(async () => {
  await dropScratch(dir, client);
  rmSync(scratch, { recursive: true, force: true });
});

const s3Options = () => ({
  s3: s3.storeSettings(),
});

/** Three signed runs an hour apart; returns the head the last sync printed. */
async function threeRuns(): Promise<string> {
  server().admin.addAuditEvents({
    count: 500,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 + 1.8 * HOUR),
  });
  let head = '';
  for (let run = 1; run <= 3; run++) {
    head =
      (await syncAuditArchive(client.audit, { dir, since: iso(T0 - 3 * HOUR), signKey })).head?.sha256 ?? '';
    server().admin.advanceClock(HOUR);
  }
  return head;
}

/** The regular files directly in a folder, by name. */
function files(folder: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isFile()) out.set(entry.name, readFileSync(join(folder, entry.name)));
  return out;
}

/** The objects under `prefix/` of the bucket, by name below the prefix. */
async function bucketFiles(prefix: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const [key, bytes] of await s3.objects(bucket))
    if (key.startsWith(`${prefix}/`)) out.set(key.slice(prefix.length + 1), bytes);
  return out;
}

async function refusal(p: Promise<unknown>): Promise<SvcError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcError);
  return error as SvcError;
}

describe('copy: folder -> bucket -> folder, object for object, the same head', () => {
  it('copies every file byte for byte both ways, and verify gives the same head for all three', async () => {
    const head = await threeRuns();
    const original = files(dir);
    expect([...original.keys()]).toContain('manifest-000003.json');

    const up = await copyAuditArchive(dir, `s3://${bucket}/nightly`, s3Options());
    expect(up.head?.sha256).toBe(head);
    expect(await bucketFiles('nightly')).toEqual(original);

    const back = join(scratch, 'back');
    const down = await copyAuditArchive(`s3://${bucket}/nightly`, back, s3Options());
    expect(down.head).toEqual(up.head);
    expect(files(back)).toEqual(original);

    for (const where of [dir, `s3://${bucket}/nightly`, back]) {
      const result = await verifyAuditArchive(where, { ...s3Options(), head, publicKey: publicPem });
      expect([where, result.ok, result.problems]).toEqual([where, true, []]);
      expect(result.head?.sha256).toBe(head);
    }
  });

  it('copies a folder to another folder and a bucket prefix to another prefix', async () => {
    const head = await threeRuns();
    await copyAuditArchive(dir, join(scratch, 'twin'), s3Options());
    await copyAuditArchive(dir, `s3://${bucket}/a`, s3Options());
    const moved = await copyAuditArchive(`s3://${bucket}/a`, `s3://${bucket}/b`, s3Options());
    expect(moved.head?.sha256).toBe(head);
    expect(await bucketFiles('b')).toEqual(files(dir));
    expect(files(join(scratch, 'twin'))).toEqual(files(dir));
  });
});

describe('copy refuses a destination that holds anything but the source objects', () => {
  it('refuses a foreign object before writing a byte', async () => {
    await threeRuns();
    const target = join(scratch, 'other');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'mine\n');
    const error = await refusal(copyAuditArchive(dir, target, s3Options()));
    expect(error.code).toBe('config');
    expect(error.message).toContain('is not empty');
    expect(error.message).toContain('notes.txt');
    expect([...files(target).keys()]).toEqual(['notes.txt']);
  });

  it('refuses an object of the same name and size with other bytes (another archive)', async () => {
    await threeRuns();
    const manifest = readFileSync(join(dir, 'manifest-000001.json'));
    const changed = Buffer.from(manifest);
    changed[changed.length - 3] = changed[changed.length - 3] === 0x30 ? 0x31 : 0x30;
    await s3
      .client()
      .send(new PutObjectCommand({ Bucket: bucket, Key: 'p/manifest-000001.json', Body: changed }));
    const error = await refusal(copyAuditArchive(dir, `s3://${bucket}/p`, s3Options()));
    expect(error.message).toMatch(/manifest-000001\.json differs from/);
    expect([...(await bucketFiles('p')).keys()]).toEqual(['manifest-000001.json']);
  });

  it('refuses the same archive as source and destination, and a source that is no archive', async () => {
    await threeRuns();
    expect((await refusal(copyAuditArchive(dir, `${dir}/`, s3Options()))).code).toBe('config');
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    expect((await refusal(copyAuditArchive(empty, join(scratch, 'x'), s3Options()))).message).toContain(
      'holds no sync archive',
    );
    expect(
      (await refusal(copyAuditArchive(join(scratch, 'missing'), join(scratch, 'y'), s3Options()))).message,
    ).toContain('no such archive folder');
  });
});

describe('an interrupted copy goes on where it stopped', () => {
  it('after a copy cut at its second manifest, a new copy adds the rest and the head matches', async () => {
    const head = await threeRuns();
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      answers: [{ method: 'PUT', path: /manifest-000002\.json$/, fixture: 'access-denied' }],
    });
    const viaProxy = { s3: { ...s3Options().s3, endpoint: proxy.endpoint, maxAttempts: 1 } };
    await expect(copyAuditArchive(dir, `s3://${bucket}/r`, viaProxy)).rejects.toThrow(/denied/i);
    await proxy.close();
    const partial = [...(await bucketFiles('r')).keys()].sort();
    expect(partial).toEqual([
      'audit-000001.ndjson',
      'audit-000002.ndjson',
      'audit-000003.ndjson',
      'manifest-000001.json',
    ]);

    const resumed = await copyAuditArchive(dir, `s3://${bucket}/r`, s3Options());
    expect(resumed.present.map((o) => o.name).sort()).toEqual(partial);
    expect(resumed.copied.map((o) => o.name)).toEqual([
      'manifest-000002.json',
      'manifest-000003.json',
      'sync-state.json',
    ]);
    expect(resumed.head?.sha256).toBe(head);
    expect(await bucketFiles('r')).toEqual(files(dir));
    expect(await s3.uploads(bucket)).toEqual([]);
  });

  it('copies again into a destination that already holds the whole copy, writing nothing', async () => {
    await threeRuns();
    await copyAuditArchive(dir, `s3://${bucket}/again`, s3Options());
    const twice = await copyAuditArchive(dir, `s3://${bucket}/again`, s3Options());
    expect(twice.copied).toEqual([]);
    expect(twice.present).toHaveLength(files(dir).size);
  });
});

describe('an interrupted copy stops with AbortError, keeps what it copied and goes on when run again', () => {
  it('stops after the first object when the signal fires, then a second copy finishes', async () => {
    const head = await threeRuns();
    const controller = new AbortController();
    const target = `s3://${bucket}/stop`;
    const stopped = await copyAuditArchive(dir, target, {
      ...s3Options(),
      signal: controller.signal,
      onObject: () => controller.abort(),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(AbortError);
    expect((stopped as Error).message).toContain('the same copy again goes on');
    expect([...(await bucketFiles('stop')).keys()]).toEqual(['audit-000001.ndjson']);
    expect(await s3.uploads(bucket)).toEqual([]);
    const rest = await copyAuditArchive(dir, target, s3Options());
    expect(rest.present.map((o) => o.name)).toEqual(['audit-000001.ndjson']);
    expect(rest.head?.sha256).toBe(head);
  });

  it('svc audit copy: exit 130 and one line when interrupted', async () => {
    await threeRuns();
    const controller = new AbortController();
    controller.abort();
    const run = await runSvc(['audit', 'copy', dir, join(scratch, 'never')], { signal: controller.signal });
    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^svc: the copy was interrupted: .*goes on from there\n$/);
  });
});

describe('names from the source reach the terminal escaped', () => {
  it('leaves an object whose name holds terminal control sequences, and names it escaped', async () => {
    await threeRuns();
    const evil = 'notes-\u001b]0;owned\u0007-\u001b[2J.txt';
    writeFileSync(join(dir, evil), 'x');
    const run = await runSvc(['audit', 'copy', dir, join(scratch, 'escaped')]);
    expect(run.code).toBe(0);
    expect(readdirSync(join(scratch, 'escaped'))).not.toContain(evil);
    expect(run.stderr).not.toMatch(/[\u0007\u001b]/);
    expect(run.stderr).toContain(
      'not copied: notes-\\x1b]0;owned\\x07-\\x1b[2J.txt is not a name of an archive',
    );
  });
});

describe('housekeeping and entries that cannot be an archive object are not copied', () => {
  it('leaves out the lock, temporary files and the work folder; skips links and odd bucket names', async () => {
    await threeRuns();
    writeFileSync(join(dir, 'audit-000004.ndjson.svc-tmp'), 'half a run');
    mkdirSync(join(dir, '.sync-work'), { recursive: true });
    writeFileSync(join(dir, '.sync-work', 'export.json'), '{}');
    symlinkSync('/etc/passwd', join(dir, 'passwd-link'));
    const up = await copyAuditArchive(dir, `s3://${bucket}/h`, s3Options());
    expect(up.skipped).toEqual(['passwd-link']);
    const names = [...(await bucketFiles('h')).keys()];
    expect(names.some((n) => n.includes('svc-tmp') || n.includes('sync-work') || n.includes('passwd'))).toBe(
      false,
    );

    // A bucket may hold keys no folder can: `h/..`, `h/sub/x`. They are skipped, not followed.
    const raw = s3.client();
    await raw.send(new PutObjectCommand({ Bucket: bucket, Key: 'h/sub/x', Body: 'nested' }));
    const down = await copyAuditArchive(`s3://${bucket}/h`, join(scratch, 'down'), s3Options());
    expect(down.skipped).toEqual(['sub']);
    expect(readdirSync(join(scratch, 'down')).sort()).toEqual(names.sort());
    raw.destroy();
  });
});
