import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { startProxy } from '../audit/helpers.js';
import { ROOT } from '../helpers/build.js';
import { BIN, collectOutput, ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

const DIR = join(ROOT, 'examples', 'nightly-audit-export');
const SCRIPT = join(DIR, 'export.sh');
// The script is bash; without bash there is nothing to run (the workflow checks still apply).
const HAS_BASH = spawnSync('bash', ['-c', 'exit 0']).status === 0;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let serve: ReturnType<typeof spawnSvc> | undefined;
let baseUrl = '';
let work = '';

async function admin(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
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
    serve = spawnSvc(['serve', '--port', '0', '--seed-audit-events', '0'], {});
    const child = serve;
    baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(child.output().stdout)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`svc serve exited ${code}`)));
    });
  });
  afterAll(async () => {
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
    expect(broken.stdout).toBe('audit-000001.ndjson.gz: sha256 or size differs from manifest-000001.json\n');
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
});

describe('example nightly-audit-export/github-actions.yml runs the script as it expects', () => {
  const yml = readFileSync(join(DIR, 'github-actions.yml'), 'utf8');

  it('nightly, on Node 20, from the lockfile', () => {
    expect(yml).toMatch(/schedule:\n\s+- cron: ["']\d+ \d+ \* \* \*["']/);
    expect(yml).toMatch(/uses: actions\/setup-node@v\d+\n\s+with:\n\s+node-version: 20/);
    expect(yml).toContain('- run: npm ci');
  });

  it('one matrix entry per project: its own key, archive directory, cache and concurrency group', () => {
    expect(yml).toMatch(/matrix:\n\s+project: \[/);
    // A GitHub expression, `${{ inner }}`.
    const gh = (inner: string) => `$${'{{'} ${inner} }}`;
    const project = gh('matrix.project');
    expect(yml).toContain(
      `SVC_API_KEY: ${gh("secrets[format('SVC_API_KEY_{0}', matrix.project)] || secrets.SVC_API_KEY")}`,
    );
    expect(yml).toContain(`SVC_BASE_URL: ${gh('secrets.SVC_BASE_URL')}`);
    expect(yml).toContain(`ARCHIVE_DIR: audit-archive/${project}`);
    expect(yml).toContain(`group: audit-archive-${project}`);
    expect(yml).toMatch(
      /uses: actions\/cache\/restore@v\d+\n\s+with:\n\s+path: audit-archive\/\$\{\{ matrix\.project \}\}/,
    );
    // Saved always (an interrupted run must be resumable), never with the lock.
    expect(yml).toMatch(/if: always\(\)\n\s+uses: actions\/cache\/save@v\d+/);
    expect(yml).toContain(`!audit-archive/${project}/sync.lock`);
    // The variables the workflow sets are the ones the script reads.
    const script = readFileSync(SCRIPT, 'utf8');
    expect(script).toContain(`$${'{'}ARCHIVE_DIR:-`);
    expect(script).toMatch(/svc\[@\]\}" "\$\{sync_args\[@\]\}"/);
    expect(script).toContain('verify_args=(audit verify "$archive_dir")');
  });
});
