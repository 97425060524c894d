import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { bucketMachine, HOUR } from './helpers.js';

// The built CLI against the loopback bucket: what a CI job does night after night, each night on a
// new machine (fresh HOME and temp folder), and a run killed with SIGKILL in the middle of its upload.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let s3: S3TestServer;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  root = mkdtempSync(join(tmpdir(), 'svc-s3-e2e-'));
}, 180_000);
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh machine: its own HOME and temp folder, the bucket's settings in the environment. */
function machine(extra: Record<string, string> = {}): Record<string, string> {
  return bucketMachine(root, s3.env, server().url, extra);
}

/** The reference server reset, its clock frozen at T0, with `count` events in the span. */
function seed(count: number, from: number, to: number): void {
  server().admin.reset();
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });
}

async function svc(args: string[], env: Record<string, string>) {
  const child = spawnSvc(args, env);
  const code = await exited(child);
  return { code, ...child.output() };
}

describe('a bucket archive holds what a folder archive holds: same layout, chain and head', () => {
  it('three nights of the built CLI, each on a fresh machine: one chain of 3 runs, verify --head whole, the folder head', async () => {
    seed(500, T0 - 2 * HOUR, T0 + 50 * HOUR);
    await s3.createBucket('nightly');
    const folder = join(root, 'folder');
    const since = iso(T0 - 3 * HOUR);
    let heads: string[] = [];
    for (let night = 0; night < 3; night++) {
      const bucketRun = await svc(
        ['audit', 'sync', '--dir', 's3://nightly/audit/prod', '--since', since],
        machine(),
      );
      expect(bucketRun.code, bucketRun.stderr).toBe(0);
      expect(bucketRun.stderr).toMatch(new RegExp(`^run ${night + 1}: `));
      const folderRun = await svc(['audit', 'sync', '--dir', folder, '--since', since], machine());
      expect(folderRun.code).toBe(0);
      heads = [bucketRun.stdout.trim(), folderRun.stdout.trim()];
      expect(heads[0]).toBe(heads[1]);
      server().admin.advanceClock(24 * HOUR);
    }
    const head = /^head (sha256:[0-9a-f]{64}) manifest-000003\.json$/.exec(heads[0] as string)?.[1] as string;
    expect(head).toBeDefined();
    const verified = await svc(['audit', 'verify', 's3://nightly/audit/prod', '--head', head], machine());
    expect(verified.code).toBe(0);
    expect(verified.stderr).toContain('archive whole: 3 runs');
    const objects = await s3.objects('nightly');
    expect([...objects.keys()].map((key) => key.slice('audit/prod/'.length)).sort()).toEqual(
      readdirSync(folder).sort(),
    );
    for (const [key, bytes] of objects)
      expect(bytes.equals(readFileSync(join(folder, key.slice('audit/prod/'.length)))), key).toBe(true);
  }, 120_000);
});

describe('crash-safe uploads: a run killed during its upload leaves no run, the next one finishes it byte for byte', () => {
  it('kill -9 during the upload of a 200,000-event run, then a new run: every event once, verify whole, no unfinished upload', async () => {
    seed(200_000, T0 - 20 * HOUR, T0 - HOUR);
    await s3.createBucket('crash');
    // A proxy without faults, to see the upload's parts go by.
    const proxy = await startS3FaultProxy({ target: s3.endpoint });
    const url = 's3://crash/audit';
    const since = iso(T0 - 21 * HOUR);
    try {
      const child = spawnSvc(
        ['audit', 'sync', '--dir', url, '--since', since],
        machine({ AWS_ENDPOINT_URL_S3: proxy.endpoint }),
      );
      const parts = () =>
        proxy.log.filter((e) => e.method === 'PUT' && e.path === '/crash/audit/audit-000001.ndjson').length;
      // Polled, not timed: the kill comes after the second part went up, whenever that is.
      while (parts() < 2 && child.exitCode === null) await wait(20);
      child.kill('SIGKILL');
      expect(await exited(child)).toBe('SIGKILL');
    } finally {
      await proxy.close();
    }
    const before = await s3.objects('crash');
    // Nothing verify would count as a run: no data object, no manifest.
    expect([...before.keys()].filter((key) => /audit-|manifest-/.test(key))).toEqual([]);
    expect((await s3.uploads('crash')).length).toBe(1);
    const housekeeping = await svc(['audit', 'gaps', '--dir', url], machine());
    expect(housekeeping.stderr).toMatch(
      /housekeeping: 1 left by interrupted runs.*audit-000001\.ndjson \(unfinished upload/,
    );

    // The killed run's lock names this host and a process that is gone: the new run takes it over.
    const later = machine();
    const rerun = await svc(['audit', 'sync', '--dir', url], later);
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toMatch(/^run 1 \(resumed\): 200000 events/);
    expect(await s3.uploads('crash')).toEqual([]);
    const verified = await svc(['audit', 'verify', url], machine());
    expect(verified.code).toBe(0);
    const data = (await s3.objects('crash')).get('audit/audit-000001.ndjson') as Buffer;
    const ids = data
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.length).toBe(200_000);
    expect(new Set(ids).size).toBe(200_000);
    // Byte for byte what a folder archive holds.
    const folder = join(root, 'crash-folder');
    expect((await svc(['audit', 'sync', '--dir', folder, '--since', since], machine())).code).toBe(0);
    expect(data.equals(readFileSync(join(folder, 'audit-000001.ndjson')))).toBe(true);
  }, 300_000);
});

describe('the AWS SDK loads only for s3://; when missing, one line says which packages to install', () => {
  it('with @aws-sdk/* not resolvable (as when not installed): one line, exit 2; a folder archive is not affected', async () => {
    const hooks = join(root, 'no-aws-sdk.mjs');
    writeFileSync(
      hooks,
      [
        'export async function resolve(specifier, context, next) {',
        "  if (!specifier.startsWith('@aws-sdk/')) return next(specifier, context);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own template string
        "  const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);",
        "  error.code = 'ERR_MODULE_NOT_FOUND';",
        '  throw error;',
        '}',
      ].join('\n'),
    );
    const register = join(root, 'register-no-aws-sdk.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', register, BIN, ...args], {
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...machine() },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const bucket = await run(['audit', 'verify', 's3://nosdk/audit']);
    expect(bucket.code).toBe(2);
    expect(bucket.stderr).toBe(
      'svc: s3://nosdk/audit: archives in a bucket need the AWS SDK: npm install @aws-sdk/client-s3 @aws-sdk/lib-storage\n',
    );
    const folder = await run(['audit', 'verify', join(root, 'no-such-folder')]);
    expect(folder.stderr).not.toContain('AWS SDK');
  }, 60_000);
});

describe('secrets: --debug lines for S3 requests mask the signature and the session token', () => {
  it('verify --debug shows the requests, never the secret key, the session token or a whole signature', async () => {
    await s3.createBucket('debug');
    const token = 'FQoGZXIvYXdzEXAMPLESESSIONTOKENxyz0123456789abcdefghijklmnop';
    const run = await svc(
      ['audit', 'verify', 's3://debug/audit', '--debug'],
      machine({ AWS_SESSION_TOKEN: token }),
    );
    expect(run.stderr).toMatch(/\[debug\] s3 > GET /);
    expect(run.stderr).not.toContain(s3.credentials.secretAccessKey);
    expect(run.stderr).not.toContain(token);
    expect(run.stderr).not.toMatch(/Signature=[0-9a-f]{64}/);
    expect(run.stderr).not.toMatch(/Credential=/);
  }, 60_000);
});

describe('a URL printed by sync goes through the one redaction: no endpoint credentials on stderr', () => {
  it('--s3-endpoint http://USER:SECRET@host on a store ignoring If-None-Match: the warning names http://***@host', async () => {
    seed(20, T0 - 2 * HOUR, T0 - HOUR);
    const loose = await startS3Server({ conditionalWrites: false });
    try {
      await loose.createBucket('loose');
      const endpoint = loose.endpoint.replace('://', '://USER:SECRET-Pa55@');
      const run = await svc(
        ['audit', 'sync', '--dir', 's3://loose/p', '--s3-endpoint', endpoint, '--debug'],
        machine(loose.env),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        `warning: ${loose.endpoint.replace('://', '://***@')} (bucket loose) ignores If-None-Match`,
      );
      expect(run.stdout + run.stderr).not.toContain('SECRET-Pa55');
      expect(run.stdout + run.stderr).not.toContain('USER:');
    } finally {
      await loose.close();
    }
  }, 60_000);
});
