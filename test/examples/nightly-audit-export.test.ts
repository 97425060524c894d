import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { startProxy } from '../audit/helpers.js';
import { ROOT } from '../helpers/build.js';
import { BIN, collectOutput, ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { type BulkStandIn, startBulkStandIn } from '../helpers/bulk-standin.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { runBlocks } from '../helpers/workflow-steps.js';

const DIR = join(ROOT, 'examples', 'nightly-audit-export');
const SCRIPT = join(DIR, 'export.sh');
// The script is bash; without bash there is nothing to run (the workflow checks still apply).
const HAS_BASH = spawnSync('bash', ['-c', 'exit 0']).status === 0;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let serve: ReturnType<typeof spawnSvc> | undefined;
let bucketServer: S3TestServer | undefined;
/** The loopback S3 server of the workflow test (the bucket the example's projects file names). */
const s3 = () => bucketServer as S3TestServer;
let baseUrl = '';
let work = '';
/** The Elasticsearch the workflow's ship step sends to: the `_bulk` stand-in. */
let es: BulkStandIn;
beforeAll(async () => {
  es = await startBulkStandIn();
});
afterAll(() => es.close());

async function admin(path: string, body?: unknown): Promise<unknown> {
  const send = () =>
    fetch(`${baseUrl}/__admin${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // A kept-alive connection the server closed while a long step ran fails once; a new one does not.
  const res = await send().catch(send);
  expect(res.ok).toBe(true);
  return res.json().catch(() => undefined);
}

/** The reference server's now: the `to` of a page asked without one. */
async function serverNow(): Promise<number> {
  const res = await fetch(`${baseUrl}/platform/v1/events?pageSize=1`, {
    headers: { authorization: `Bearer ${DEMO.projectKey}` },
  });
  return Date.parse(((await res.json()) as { to: string }).to);
}

/** Adds `count` demo-project events between two instants. */
const addEvents = (count: number, from: number, to: number) =>
  admin('/audit-events', { count, scope: 'project', from: iso(from), to: iso(to) });

/** Runs export.sh in `work`, in its own process group, as a CI job would. */
function startScript(env: Record<string, string> = {}) {
  const child = spawn('bash', [SCRIPT], {
    cwd: work,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NO_COLOR: '1',
      SVC_BASE_URL: baseUrl,
      SVC_API_KEY: DEMO.projectKey,
      SVC_CLI: BIN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  return { child, done: exited(child).then((code) => ({ code, ...output() })) };
}

const runScript = (env: Record<string, string> = {}) => startScript(env).done;

const archive = () => join(work, 'audit-archive');

/** The ids of every data file of the archive, oldest run first. */
function archivedIds(): string[] {
  const files = readdirSync(archive())
    .filter((name) => name.endsWith('.ndjson.gz'))
    .sort();
  return files.flatMap((name) =>
    gunzipSync(readFileSync(join(archive(), name)))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id),
  );
}

describe.skipIf(!HAS_BASH)('example nightly-audit-export/export.sh: the built svc against svc serve', () => {
  beforeAll(async () => {
    ensureBuilt();
    bucketServer = await startS3Server();
    serve = spawnSvc(['serve', '--port', '0', '--seed-audit-events', '0'], {});
    const child = serve;
    baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(child.output().stdout)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`svc serve exited ${code}`)));
    });
    // A stale dist/ is rebuilt here, which takes longer than a hook's default time on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await bucketServer?.close();
    if (serve && serve.exitCode === null) {
      serve.kill('SIGTERM');
      await exited(serve);
    }
  });
  beforeEach(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-nightly-')));
    await admin('/reset');
    await admin('/clock', { frozen: true });
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('each night adds what is new, once; verify passes; no dates computed', async () => {
    const now = await serverNow();
    await addEvents(1200, now - 20 * HOUR, now - HOUR);
    const first = await runScript({ SYNC_SINCE: iso(now - 24 * HOUR) });
    expect(first.stderr).toContain('synced and verified');
    expect(first.code).toBe(0);
    expect(archivedIds()).toHaveLength(1200);

    // A day later on the server's clock: only the new events are added, in a second file.
    await admin('/clock', { advanceMs: 24 * HOUR });
    await addEvents(300, now + 2 * HOUR, now + 20 * HOUR);
    const second = await runScript();
    expect(second.code).toBe(0);
    const ids = archivedIds();
    expect(ids).toHaveLength(1500);
    expect(new Set(ids).size).toBe(1500);
    expect(readdirSync(archive()).filter((n) => n.startsWith('manifest-'))).toEqual([
      'manifest-000001.json',
      'manifest-000002.json',
    ]);
  });

  it('signs with SIGN_KEY and verifies with PUBLIC_KEY; a changed file fails the job with exit 1', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(work, 'sign.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(work, 'public.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const keys = { SIGN_KEY: 'sign.pem', PUBLIC_KEY: 'public.pem' };
    const now = await serverNow();
    await addEvents(50, now - 3 * HOUR, now - HOUR);
    expect((await runScript(keys)).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(archive(), 'manifest-000001.json'), 'utf8'));
    expect(typeof manifest.signature).toBe('string');

    writeFileSync(join(archive(), 'audit-000001.ndjson.gz'), 'not the archived bytes');
    await admin('/clock', { advanceMs: HOUR });
    const broken = await runScript(keys);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      /^audit-000001\.ndjson\.gz: sha256 or size differs from manifest-000001\.json$/m,
    );
    expect(broken.stderr).toContain('verify found problems');
  });

  it('a cancelled job (SIGTERM to the process group) exits 75; the next run finishes the same run', async () => {
    const now = await serverNow();
    await addEvents(40, now - 3 * HOUR, now - HOUR);
    let job: ReturnType<typeof startScript> | undefined;
    const proxy = await startProxy(baseUrl, () => {
      // The job is cancelled while svc waits for its first answer.
      if (job?.child.pid) process.kill(-job.child.pid, 'SIGTERM');
      return 'hold';
    });
    let interrupted: Awaited<ReturnType<typeof runScript>>;
    try {
      job = startScript({ SVC_BASE_URL: proxy.url });
      interrupted = await job.done;
    } finally {
      await proxy.close();
    }
    expect(interrupted.stderr).toContain('sync interrupted');
    expect(interrupted.code).toBe(75);
    const resumed = await runScript();
    expect(resumed.code).toBe(0);
    expect(archivedIds()).toHaveLength(40);
  });

  it('a failing sync (expired key) fails the job with svc exit 1, without printing the key', async () => {
    const { code, stderr } = await runScript({ SVC_API_KEY: DEMO.expiredKey });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^svc: .*403/m);
    expect(stderr).not.toContain(DEMO.expiredKey);
  });

  it('--projects: 20 projects made with POST /__admin/projects, each into its own directory; a 402 stops no other', async () => {
    const now = await serverNow();
    const projects: Array<{ name: string; dir: string; keyEnv: string }> = [];
    const env: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      const name = `client-${String(i).padStart(2, '0')}`;
      // The tenth project's plan has no audit log: every call is 402.
      const made = (await admin('/projects', { name, ...(i === 9 && { plan: 'basic' }) })) as {
        projectId: string;
        apiKey: string;
      };
      await admin('/audit-events', {
        count: 10 + i,
        projectId: made.projectId,
        from: iso(now - 3 * HOUR),
        to: iso(now - HOUR),
      });
      projects.push({ name, dir: join('archives', name), keyEnv: `SVC_KEY_${i}` });
      env[`SVC_KEY_${i}`] = made.apiKey;
    }
    writeFileSync(join(work, 'projects.json'), JSON.stringify(projects));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'audit',
        'sync',
        '--projects',
        'projects.json',
        '--parallel',
        '4',
        '--since',
        iso(now - 4 * HOUR),
      ],
      {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NO_COLOR: '1',
          SVC_BASE_URL: baseUrl,
          ...env,
        },
      },
    );
    const output = collectOutput(child);
    const code = await exited(child);
    const { stdout, stderr } = output();
    expect(code).toBe(1);
    expect(stderr).toMatch(/^warning: client-09: failed: .*402|^warning: client-09: failed: .*audit log/m);
    expect(stderr).toMatch(/^20 projects: 19 ok, 0 not whole, 1 failed$/m);
    expect(stdout.trimEnd().split('\n')).toHaveLength(19);
    for (const [i, project] of projects.entries()) {
      if (i === 9) continue;
      const ids = readFileSync(join(work, project.dir, 'audit-000001.ndjson'), 'utf8')
        .trimEnd()
        .split('\n');
      expect(ids).toHaveLength(10 + i);
      expect(stdout).toMatch(
        new RegExp(`^head sha256:[0-9a-f]{64} manifest-000001\\.json ${project.name}$`, 'm'),
      );
    }
    for (const key of Object.values(env)) expect(stderr + stdout).not.toContain(key);
  });

  it('the workflow run steps, as written, against svc serve and a bucket: stateless, one chain across fresh runners', async () => {
    const yml = readFileSync(join(DIR, 'github-actions.yml'), 'utf8');
    const projectsFile = readFileSync(join(DIR, 'audit-projects.json'), 'utf8');
    const bucket = /s3:\/\/([^/]+)\//.exec(projectsFile)?.[1] as string;
    await s3().createBucket(bucket);
    const now = await serverNow();
    const made: Record<string, string> = {};
    for (const name of ['shop', 'billing']) {
      const project = (await admin('/projects', { name })) as { projectId: string; apiKey: string };
      made[name] = project.projectId;
      await admin('/audit-events', {
        count: 30,
        projectId: project.projectId,
        from: iso(now - 20 * HOUR),
        to: iso(now - HOUR),
      });
      (made as Record<string, string>)[`key:${name}`] = project.apiKey;
    }
    const { privateKey } = generateKeyPairSync('ed25519');
    /**
     * One night on a fresh runner (a new checkout, an empty RUNNER_TEMP): every run block in order,
     * as GitHub would (a failed step skips the rest but the `always()` ones). The AWS_* variables
     * stand in for what configure-aws-credentials exports.
     */
    const night = async () => {
      const runner = realpathSync(mkdtempSync(join(tmpdir(), 'svc-nightly-runner-')));
      const bin = join(runner, 'checkout', 'node_modules', '.bin');
      spawnSync('mkdir', ['-p', bin, join(runner, 'temp')]);
      writeFileSync(join(runner, 'checkout', 'audit-projects.json'), projectsFile);
      writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
        mode: 0o755,
      });
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: join(runner, 'temp'),
        NO_COLOR: '1',
        RUNNER_TEMP: join(runner, 'temp'),
        GITHUB_STEP_SUMMARY: join(runner, 'temp', 'summary.md'),
        SVC_BASE_URL: baseUrl,
        SVC_KEY_SHOP: made['key:shop'] as string,
        SVC_KEY_BILLING: made['key:billing'] as string,
        AUDIT_SIGN_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        AUDIT_ES_URL: es.url,
        SVC_SHIP_API_KEY: 'c3ZjLWF1ZGl0LXNoaXA6a2V5LXNlY3JldA==',
        ...s3().env,
      };
      const codes: Record<string, number | null> = {};
      let failed = false;
      for (const block of runBlocks(yml)) {
        if (failed && !block.always) continue;
        // Not spawnSync: the bucket's server runs in this process and must go on answering.
        const run = spawn('bash', ['-e', '-c', block.script], {
          cwd: join(runner, 'checkout'),
          env,
          stdio: 'ignore',
        });
        const status = await exited(run);
        codes[block.name] = typeof status === 'number' ? status : null;
        if (status !== 0) failed = true;
      }
      const summary = readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8');
      const keyMode = statSync(join(runner, 'temp', 'audit-sign.pem')).mode & 0o777;
      rmSync(runner, { recursive: true, force: true });
      return { codes, summary, keyMode };
    };
    const SHIP_CHECKPOINT = /\/ship-[0-9a-f]{16}\.json$/;
    const objects = async () =>
      [...(await s3().objects(bucket)).keys()]
        .filter((key) => !key.endsWith('sync-state.json') && !SHIP_CHECKPOINT.test(key))
        .sort();
    /** The ship checkpoints in the bucket: one per project's prefix. */
    const checkpoints = async () =>
      [...(await s3().objects(bucket)).keys()]
        .filter((key) => SHIP_CHECKPOINT.test(key))
        .map((key) => key.split('/')[0]);

    const first = await night();
    expect(first.codes).toEqual({
      'Write the signing key': 0,
      'Sync every project': 0,
      'Verify every archive': 0,
      'Ship every archive to Elasticsearch': 0,
    });
    expect([es.count('svc-audit-shop'), es.count('svc-audit-billing')]).toEqual([30, 30]);
    expect((await checkpoints()).sort()).toEqual(['billing', 'shop']);
    expect(first.keyMode).toBe(0o600);
    expect(first.summary).toMatch(/audit archive `s3:\/\/acme-audit-archive\/shop` \(shop\): head `sha256:/);
    expect(await objects()).toEqual([
      'billing/audit-000001.ndjson.gz',
      'billing/manifest-000001.json',
      'shop/audit-000001.ndjson.gz',
      'shop/manifest-000001.json',
    ]);
    expect(await s3().uploads(bucket)).toEqual([]);

    // The next night, on another runner with nothing of the first: the chain goes on from the
    // bucket. Shop gets events recorded late, after the overlap: a gap, so verify fails the job.
    await admin('/clock', { advanceMs: 24 * HOUR });
    await admin('/audit-events', {
      count: 2,
      projectId: made.shop,
      from: iso(now - 10 * HOUR),
      to: iso(now - 9 * HOUR),
    });
    const second = await night();
    expect(second.codes).toEqual({
      'Write the signing key': 0,
      'Sync every project': 0,
      'Verify every archive': 1,
      'Ship every archive to Elasticsearch': 0,
    });
    // The late events are not in the archive (the gap verify names): the second night's ship
    // found nothing new, and its checkpoint from the bucket kept it from sending anything twice.
    expect([es.count('svc-audit-shop'), es.count('svc-audit-billing')]).toEqual([30, 30]);
    expect(es.duplicatesRefused).toBe(0);
    expect(second.summary).toMatch(/\(billing\): head `sha256:[0-9a-f]{64}` \(manifest-000002\.json\)/);
    expect(await objects()).toEqual([
      'billing/audit-000001.ndjson.gz',
      'billing/audit-000002.ndjson.gz',
      'billing/manifest-000001.json',
      'billing/manifest-000002.json',
      'shop/audit-000001.ndjson.gz',
      'shop/audit-000002.ndjson.gz',
      'shop/manifest-000001.json',
      'shop/manifest-000002.json',
    ]);
  });
});

describe('example nightly-audit-export/github-actions.yml: current, stateless, one job for many projects', () => {
  const yml = readFileSync(join(DIR, 'github-actions.yml'), 'utf8');

  it('nightly, Node 24, current action majors, from the lockfile', () => {
    expect(yml).toMatch(/schedule:\n\s+- cron: ["']\d+ \d+ \* \* \*["']/);
    expect(yml).toMatch(/uses: actions\/setup-node@v5\n\s+with:\n\s+node-version: 24/);
    expect(yml).toContain('uses: actions/checkout@v5');
    expect(yml).toContain('uses: aws-actions/configure-aws-credentials@v5');
    expect(yml).not.toMatch(/@v[0-3]\b/);
    expect(yml).toContain('- run: npm ci');
  });

  it('keeps nothing on the runner: no cache, no artifact; credentials by OIDC, keys from secrets', () => {
    expect(yml).not.toMatch(/actions\/cache|upload-artifact/);
    expect(yml).toMatch(/permissions:\n\s+contents: read\n\s+id-token: write/);
    expect(yml).toMatch(
      /configure-aws-credentials@v5\n\s+with:\n\s+role-to-assume: \$\{\{ vars\.AUDIT_ROLE_ARN \}\}/,
    );
    expect(yml).not.toMatch(/AWS_SECRET_ACCESS_KEY: /);
    expect(yml).not.toContain('if: success()');
    const blocks = runBlocks(yml);
    expect(blocks.map((b) => [b.name, b.always])).toEqual([
      ['Write the signing key', false],
      ['Sync every project', false],
      ['Verify every archive', true],
      ['Ship every archive to Elasticsearch', true],
    ]);
    // Every archive is a bucket prefix; keys come from secrets into the variables the file names.
    const projects = JSON.parse(readFileSync(join(DIR, 'audit-projects.json'), 'utf8')) as Array<{
      dir: string;
      keyEnv: string;
    }>;
    for (const { dir, keyEnv } of projects) {
      expect(dir).toMatch(/^s3:\/\/[a-z0-9.-]+\/[a-z]+$/);
      expect(yml).toContain(`${keyEnv}: $${'{{'} secrets.${keyEnv} }}`);
    }
  });
});
