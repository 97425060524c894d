import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { AbortError } from '../../src/core/errors/index.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ROOT } from '../helpers/build.js';
import { BIN, ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

const DIR = join(ROOT, 'examples', 'nightly-audit-export');
const SCRIPT = join(DIR, 'export.sh');
// The script is bash; without bash there is nothing to run (the workflow checks still apply).
const HAS_BASH = spawnSync('bash', ['-c', 'exit 0']).status === 0;

/** `YYYY-MM-DD` of the UTC day `n` days ago. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

let serve: ReturnType<typeof spawnSvc> | undefined;
let baseUrl = '';
let work = '';

async function admin(path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
}

/** Adds `count` demo-project events inside one UTC day. */
const addEvents = (day: string, count: number) =>
  admin('/audit-events', { count, scope: 'project', from: `${day}T00:00:01Z`, to: `${day}T23:59:59Z` });

/** Runs export.sh in `work`, in its own process group, as a CI job would. */
async function runScript(env: Record<string, string> = {}) {
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
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await exited(child);
  return { code, stderr };
}

/** The events of a finished export: one JSON object per line. */
function exported(day: string): Array<{ id: string; occurredAt: string }> {
  const text = gunzipSync(readFileSync(join(work, 'audit-export', `audit-${day}.ndjson.gz`))).toString(
    'utf8',
  );
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; occurredAt: string });
}

describe.skipIf(!HAS_BASH)('example nightly-audit-export/export.sh against svc serve', () => {
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
    // realpath: the state file records the output's absolute path, as the shell will see it.
    work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-nightly-')));
    await admin('/reset');
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it("exports yesterday's UTC day, and only that day, as gzip NDJSON into EXPORT_DIR", async () => {
    const yesterday = daysAgo(1);
    await addEvents(yesterday, 1500);
    await addEvents(daysAgo(2), 40);
    const { code, stderr } = await runScript();
    expect(stderr).toContain(`wrote audit-export/audit-${yesterday}.ndjson.gz`);
    expect(code).toBe(0);
    const events = exported(yesterday);
    expect(events).toHaveLength(1500);
    expect(new Set(events.map((e) => e.id)).size).toBe(1500);
    expect(events.every((e) => e.occurredAt.startsWith(yesterday))).toBe(true);
    // Nothing left to resume; the marker gives the CI cache something to save.
    expect(readdirSync(join(work, '.audit-export'))).toEqual(['last-success']);
  });

  it('finishes an interrupted export of an earlier day first, then exports yesterday', async () => {
    const earlier = daysAgo(3);
    await addEvents(earlier, 35);
    await addEvents(daysAgo(1), 5);
    // An earlier run stopped after its first page: state file plus partial output in WORK_DIR.
    mkdirSync(join(work, '.audit-export'));
    const client = new SvcClient({ baseUrl, apiKey: DEMO.projectKey });
    const stop = new AbortController();
    const partial = client.audit.exportEvents({
      from: `${earlier}T00:00:00Z`,
      to: `${earlier}T23:59:59.999Z`,
      output: join(work, '.audit-export', `audit-${earlier}.ndjson.gz`),
      statePath: join(work, '.audit-export', `audit-${earlier}.state.json`),
      gzip: true,
      pageSize: 10,
      signal: stop.signal,
      onProgress: () => stop.abort(),
    });
    await expect(partial).rejects.toBeInstanceOf(AbortError);
    await client.close();

    const { code, stderr } = await runScript();
    expect(stderr).toContain(`resuming the export of ${earlier}`);
    expect(code).toBe(0);
    expect(exported(earlier)).toHaveLength(35);
    expect(new Set(exported(earlier).map((e) => e.id)).size).toBe(35);
    expect(exported(daysAgo(1))).toHaveLength(5);
    expect(readdirSync(join(work, '.audit-export'))).toEqual(['last-success']);
  });

  it('an interrupted run exits 75 and keeps its state for the next run', async () => {
    // Stands in for svc: records its arguments, then does what svc does when the CI runner
    // signals the job's process group: exits 75 once its state is saved.
    const fake = join(work, 'fake-svc');
    writeFileSync(
      fake,
      [
        '#!/usr/bin/env bash',
        `printf '%s\\n' "$@" > ${JSON.stringify(join(work, 'args.txt'))}`,
        "trap 'exit 75' TERM",
        'kill -TERM 0',
        'exit 1',
      ].join('\n'),
    );
    chmodSync(fake, 0o755);
    const yesterday = daysAgo(1);
    const { code, stderr } = await runScript({ SVC_CLI: fake });
    expect(stderr).toContain(`export of ${yesterday} interrupted`);
    expect(code).toBe(75);
    expect(readFileSync(join(work, 'args.txt'), 'utf8').trim().split('\n')).toEqual([
      'audit',
      'export',
      '--from',
      `${yesterday}T00:00:00Z`,
      '--to',
      `${yesterday}T23:59:59.999Z`,
      '--out',
      `.audit-export/audit-${yesterday}.ndjson.gz`,
      '--state',
      `.audit-export/audit-${yesterday}.state.json`,
      '--gzip',
    ]);
    expect(readdirSync(join(work, 'audit-export'))).toEqual([]);
  });

  it('EXPORT_DAY backfills one day; a malformed one is exit 2', async () => {
    const day = daysAgo(5);
    await addEvents(day, 12);
    const backfill = await runScript({ EXPORT_DAY: day });
    expect(backfill.code).toBe(0);
    expect(exported(day)).toHaveLength(12);
    const bad = await runScript({ EXPORT_DAY: '2026-1-5' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("export.sh: EXPORT_DAY must look like 2026-01-31, got '2026-1-5'\n");
  });

  it('a failing export (expired key) fails the job with svc exit 1 and uploads nothing', async () => {
    const { code, stderr } = await runScript({ SVC_API_KEY: DEMO.expiredKey });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^svc: .*403/m);
    expect(stderr).not.toContain(DEMO.expiredKey);
    expect(readdirSync(join(work, 'audit-export'))).toEqual([]);
  });
});

describe('example nightly-audit-export/github-actions.yml runs the script as it expects', () => {
  const yml = readFileSync(join(DIR, 'github-actions.yml'), 'utf8');

  it('nightly, on Node 20, from the lockfile', () => {
    expect(yml).toMatch(/schedule:\n\s+- cron: ["']\d+ \d+ \* \* \*["']/);
    expect(yml).toMatch(/uses: actions\/setup-node@v\d+\n\s+with:\n\s+node-version: 20/);
    expect(yml).toContain('- run: npm ci');
  });

  it('restores and always saves WORK_DIR, passes the secrets, uploads EXPORT_DIR', () => {
    expect(yml).toMatch(/uses: actions\/cache\/restore@v\d+\n\s+with:\n\s+path: \.audit-export/);
    expect(yml).toMatch(
      /if: always\(\)\n\s+uses: actions\/cache\/save@v\d+\n\s+with:\n\s+path: \.audit-export/,
    );
    for (const name of ['SVC_API_KEY', 'SVC_BASE_URL']) {
      expect(yml).toMatch(new RegExp(`${name}: \\$\\{\\{ secrets\\.${name} \\}\\}`));
    }
    expect(yml).toContain('WORK_DIR: .audit-export');
    expect(yml).toContain('EXPORT_DIR: audit-export');
    expect(yml).toMatch(/uses: actions\/upload-artifact@v\d+\n[\s\S]*path: audit-export\/\*\.ndjson\.gz/);
    // The variables the workflow sets are the ones the script reads.
    const script = readFileSync(SCRIPT, 'utf8');
    for (const name of ['EXPORT_DAY', 'EXPORT_DIR', 'WORK_DIR']) expect(script).toContain(`\${${name}:-`);
    expect(existsSync(SCRIPT)).toBe(true);
  });
});
