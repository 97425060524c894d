import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { HOUR } from './helpers.js';

// `svc audit copy` end to end through the built CLI, against `svc`'s reference server and the
// loopback S3 server: an archive synced into a folder moves to a bucket and back, byte for byte.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SDK_NODE_WARNING = /\(node:\d+\) Warning: NodeVersionSupportWarning[\s\S]*?--trace-warnings[^\n]*\n/;
let s3: S3TestServer;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  await s3.createBucket('archive');
  root = mkdtempSync(join(tmpdir(), 'svc-audit-copy-e2e-'));
}, 180_000);
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs the built CLI with the S3 server's AWS_* settings and a fresh HOME; code, stdout, stderr. */
async function svc(...args: string[]): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(root, 'home-'));
  const child = spawnSvc(args, { ...s3.env, HOME: home, SVC_API_KEY: 'ak_demo_project' });
  const code = await exited(child);
  const { stdout, stderr } = child.output();
  // On Node 20 the AWS SDK warns that its releases after January 2027 need Node 22: its text, not ours.
  return { code, stdout, stderr: stderr.replace(SDK_NODE_WARNING, '') };
}

function files(folder: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isFile()) out.set(entry.name, readFileSync(join(folder, entry.name)));
  return out;
}

describe('svc audit copy: folder -> bucket -> folder, every object byte-identical, the same head', () => {
  it('moves a three-night archive into the bucket and back; verify --head holds on all three', async () => {
    server().admin.freezeClock(true);
    server().admin.setNow(T0);
    server().admin.addAuditEvents({
      count: 900,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 + 1.8 * HOUR),
    });
    const dir = join(root, 'folder');
    let head = '';
    for (let night = 1; night <= 3; night++) {
      const sync = await svc(
        'audit',
        'sync',
        '--dir',
        dir,
        '--since',
        iso(T0 - 3 * HOUR),
        '--base-url',
        server().url,
      );
      expect([sync.code, sync.stderr]).toEqual([0, expect.any(String)]);
      head = /head sha256:([0-9a-f]{64}) manifest-00000\d\.json/.exec(sync.stdout)?.[1] ?? '';
      server().admin.advanceClock(HOUR);
    }
    expect(head).toMatch(/^[0-9a-f]{64}$/);

    const up = await svc('audit', 'copy', dir, 's3://archive/nightly');
    expect([up.code, up.stdout]).toEqual([0, `head sha256:${head} manifest-000003.json\n`]);
    expect(up.stderr).toContain('each read back equal (sha256)');
    const objects = new Map(
      [...(await s3.objects('archive'))].map(([key, bytes]) => [key.replace(/^nightly\//, ''), bytes]),
    );
    expect(objects).toEqual(files(dir));

    const back = join(root, 'back');
    const down = await svc('audit', 'copy', 's3://archive/nightly', back);
    expect([down.code, down.stdout]).toEqual([0, up.stdout]);
    expect(files(back)).toEqual(files(dir));

    for (const where of [dir, 's3://archive/nightly', back]) {
      const verify = await svc('audit', 'verify', where, '--head', head);
      expect([where, verify.code, verify.stdout]).toEqual([where, 0, '']);
      expect(verify.stderr).toContain(`head manifest-000003.json sha256:${head}`);
    }

    // Worst destinations: one that holds something else, and a bucket that does not exist.
    const taken = join(root, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'manifest-000001.json'), '{}');
    const refused = await svc('audit', 'copy', dir, taken);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^svc: .*is not empty: .*manifest-000001\.json/),
    ]);
    expect(files(taken).size).toBe(1);

    const nowhere = await svc('audit', 'copy', dir, 's3://no-such-bucket/p');
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr.trim().split('\n'), nowhere.stderr).toHaveLength(1);
    expect(nowhere.stderr).toMatch(/no-such-bucket/);
    expect(nowhere.stderr).not.toMatch(/S3RVER|at .*\.js/);
  }, 90_000);
});

describe('svc audit copy: only the archive comes down from a bucket; planted keys are named, verify passes', () => {
  it('leaves .bashrc, CON, .sync-work, a *.svc-tmp and a backslash key, exit 0, and the folder verifies', async () => {
    server().admin.freezeClock(true);
    server().admin.setNow(T0);
    server().admin.addAuditEvents({ count: 50, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0) });
    const dir = join(root, 'planted-source');
    const sync = await svc(
      'audit',
      'sync',
      '--dir',
      dir,
      '--since',
      iso(T0 - 3 * HOUR),
      '--base-url',
      server().url,
    );
    expect(sync.code).toBe(0);
    const head = /head sha256:([0-9a-f]{64})/.exec(sync.stdout)?.[1] ?? '';
    writeFileSync(join(dir, 'sign.pem'), 'not a key\n');
    const up = await svc('audit', 'copy', dir, 's3://archive/planted');
    expect([up.code, up.stderr]).toEqual([0, expect.stringContaining('not copied: sign.pem is not a name')]);
    const raw = s3.client();
    const planted = [
      '.bashrc',
      'CON',
      '.sync-work',
      'manifest-000001.json.svc-tmp',
      'audit-000001.ndjson\\x',
    ];
    for (const name of planted)
      await raw.send(new PutObjectCommand({ Bucket: 'archive', Key: `planted/${name}`, Body: 'planted\n' }));
    raw.destroy();
    const back = join(root, 'planted-back');
    const down = await svc('audit', 'copy', 's3://archive/planted', back);
    expect([down.code, down.stdout]).toEqual([0, up.stdout]);
    for (const name of planted) expect(down.stderr).toContain(`not copied: ${name} is not a name`);
    expect(readdirSync(back).sort()).toEqual(
      readdirSync(dir)
        .filter((name) => name !== 'sign.pem')
        .sort(),
    );
    const verify = await svc('audit', 'verify', back, '--head', head);
    expect([verify.code, verify.stdout]).toEqual([0, '']);
  }, 60_000);
});
