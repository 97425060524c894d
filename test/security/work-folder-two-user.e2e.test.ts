import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';

// Issue 40: a bucket sync once worked in `<tmpdir>/svc-sync-<16 hex of sha256(location)>`, a name
// any user can predict and make first in the shared temp folder. Here a second user (nobody,
// uid 65534) really makes those folders, and root runs the built CLI against the loopback bucket.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const SINCE = iso(T0 - 3 * HOUR);
const NOBODY = 65534;
const FORGED = '{"id":"forged-by-nobody","occurredAt":"2026-03-02T10:30:00.000Z","action":"forged"}';

/** Why the two-user test cannot run here, or undefined when it can. */
function cannotRun(): string | undefined {
  if (process.platform === 'win32') return 'Windows: no uids to switch to';
  if (process.getuid?.() !== 0) return 'not root: cannot act as a second user (nobody) here';
  const probe = spawnSync('/bin/sh', ['-c', 'id -u'], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
  if (probe.status !== 0 || probe.stdout.trim() !== String(NOBODY)) return 'cannot start a process as nobody';
  return undefined;
}
const skipReason = cannotRun();
if (skipReason) console.log(`two-user work-folder tests skipped: ${skipReason}`);
const twoUsers = skipReason ? it.skip : it;

let s3: S3TestServer;
let root: string;
/** A shared temp folder as /tmp is (1777): TMPDIR of every run here, where the old code worked. */
let shared: string;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  root = mkdtempSync(join(tmpdir(), 'svc-two-user-'));
  shared = join(root, 'tmp');
  mkdirSync(shared);
  chmodSync(root, 0o755);
  chmodSync(shared, 0o1777);
}, 180_000);
afterAll(async () => {
  await s3?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs a shell script as nobody (a real second user); fails the test when it fails. */
function asNobody(script: string): void {
  const run = spawnSync('/bin/sh', ['-c', script], { uid: NOBODY, gid: NOBODY, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

/** Root's environment: its own HOME (so its own cache folder), the shared TMPDIR. */
function rootEnv(home: string): Record<string, string> {
  return {
    ...s3.env,
    HOME: home,
    TMPDIR: shared,
    SVC_API_KEY: 'ak_demo_project',
    SVC_BASE_URL: server().url,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

async function svc(args: string[], env: Record<string, string>) {
  const child = spawnSvc(args, env);
  const code = await exited(child);
  return { code, ...child.output() };
}

/** The folder name the old code (and the new, under its root) gives an archive's work. */
const workName = (location: string) =>
  `svc-sync-${createHash('sha256').update(location).digest('hex').slice(0, 16)}`;

function seed(): void {
  server().admin.reset();
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({
    count: 40,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 - HOUR),
  });
}

/** Every event id in the bucket's data objects under `prefix`. */
async function bucketIds(bucket: string, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (const [key, bytes] of await s3.objects(bucket)) {
    if (!key.startsWith(`${prefix}/audit-`)) continue;
    for (const line of bytes.toString('utf8').split('\n'))
      if (line !== '') ids.push((JSON.parse(line) as { id: string }).id);
  }
  return ids;
}

/** A fresh HOME for root, 0700 as a home is. */
const freshHome = () => mkdtempSync(join(root, 'home-'));

describe('a work folder another user made is never used: not the old shared path, not the new default', () => {
  twoUsers(
    "nobody's folder at the old shared path (0777, an empty 0666 part): the sync works elsewhere, exit 0, nothing written into nobody's file",
    async () => {
      seed();
      await s3.createBucket('audit');
      const location = 's3://audit/leak';
      const old = join(shared, workName(location));
      asNobody(
        `umask 0 && mkdir -m 0777 '${old}' && : > '${old}/run-000001.ndjson' && chmod 0666 '${old}/run-000001.ndjson'`,
      );
      const home = freshHome();
      const run = await svc(['audit', 'sync', '--dir', location, '--since', SINCE], rootEnv(home));
      expect(run.code, run.stderr).toBe(0);
      expect(statSync(join(old, 'run-000001.ndjson')).size).toBe(0);
      expect(statSync(old).uid).toBe(NOBODY);
      expect((await bucketIds('audit', 'leak')).length).toBe(40);
      // It worked in root's own cache folder, removed at the end.
      expect(existsSync(join(home, '.cache', 'svc'))).toBe(true);
      expect(statSync(join(home, '.cache', 'svc')).mode & 0o777).toBe(0o700);
      expect(existsSync(join(home, '.cache', 'svc', workName(location)))).toBe(false);
    },
    60_000,
  );

  twoUsers(
    "nobody's finished export at the old shared path (a forged line and a state naming it complete): no forged event reaches the bucket",
    async () => {
      seed();
      await s3.createBucket('probe');
      // The range the run will ask for (the server's clock is frozen): from a run into another bucket.
      const probe = await svc(
        ['audit', 'sync', '--dir', 's3://probe/p', '--since', SINCE],
        rootEnv(freshHome()),
      );
      expect(probe.code, probe.stderr).toBe(0);
      const manifest = JSON.parse(
        ((await s3.objects('probe')).get('p/manifest-000001.json') as Buffer).toString('utf8'),
      ) as { query: { from: string; to: string } };
      seed();
      await s3.createBucket('forge');
      const location = 's3://forge/leak';
      const old = join(shared, workName(location));
      const part = join(old, 'run-000001.ndjson');
      const state = {
        version: 1,
        ...manifest.query,
        pageSize: 1000,
        gzip: false,
        output: part,
        cursor: null,
        complete: true,
        bytes: FORGED.length + 1,
        events: 1,
        pages: 1,
        lastId: 'forged-by-nobody',
        totalElements: 1,
        updatedAt: iso(T0),
      };
      asNobody(
        `umask 0 && mkdir -m 0777 '${old}' && printf '%s\\n' '${FORGED}' > '${part}' && printf '%s' '${JSON.stringify(state)}' > '${old}/run-000001.state.json'`,
      );
      const run = await svc(['audit', 'sync', '--dir', location, '--since', SINCE], rootEnv(freshHome()));
      expect(run.code, run.stderr).toBe(0);
      const ids = await bucketIds('forge', 'leak');
      expect(ids).not.toContain('forged-by-nobody');
      expect(ids.length).toBe(40);
      expect(readFileSync(part, 'utf8')).toBe(`${FORGED}\n`);
    },
    60_000,
  );

  twoUsers(
    "nobody's folder at the new default (chowned to nobody, 0777, a forged part): refused in one line naming it, exit 2 (config), nothing in the bucket",
    async () => {
      seed();
      await s3.createBucket('planted');
      const location = 's3://planted/leak';
      const home = freshHome();
      const cache = join(home, '.cache', 'svc');
      mkdirSync(cache, { recursive: true, mode: 0o700 });
      const planted = join(cache, workName(location));
      mkdirSync(planted);
      chmodSync(planted, 0o777);
      chownSync(planted, NOBODY, NOBODY);
      // nobody cannot reach root's home; it writes through a copy of the folder's path it is given.
      const part = join(planted, 'run-000001.ndjson');
      writeFileSync(part, `${FORGED}\n`);
      chmodSync(part, 0o666);
      chownSync(part, NOBODY, NOBODY);
      const run = await svc(['audit', 'sync', '--dir', location, '--since', SINCE], rootEnv(home));
      expect(run.code, run.stderr).toBe(2);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toContain(`work folder ${planted} belongs to another user (uid ${NOBODY})`);
      expect(readFileSync(part, 'utf8')).toBe(`${FORGED}\n`);
      const keys = [...(await s3.objects('planted')).keys()];
      expect(keys.filter((key) => /audit-|manifest-/.test(key))).toEqual([]);
    },
    60_000,
  );

  twoUsers(
    "--work-dir naming nobody's 0777 folder: refused in one line, exit 2 (config), nothing in nobody's folder",
    async () => {
      seed();
      await s3.createBucket('given');
      const given = join(shared, 'nobodys-work');
      asNobody(`umask 0 && mkdir -m 0777 '${given}'`);
      const run = await svc(
        ['audit', 'sync', '--dir', 's3://given/leak', '--since', SINCE, '--work-dir', given],
        rootEnv(freshHome()),
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`work folder ${given} belongs to another user (uid ${NOBODY})`);
      expect(spawnSync('ls', ['-A', given], { encoding: 'utf8' }).stdout).toBe('');
    },
    60_000,
  );
});
