import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';

const run = promisify(execFile);
const EXAMPLE = join(ROOT, 'examples', 'cloudflare-worker');
const server = useReferenceServer();
let out: string;
let built: string;
let worker: Miniflare;

beforeAll(async () => {
  ensureBuilt();
  out = mkdtempSync(join(tmpdir(), 'svc-worker-'));
  // wrangler from npm, as a user builds it; no account, no network (dry run, no telemetry).
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: out,
    WRANGLER_SEND_METRICS: 'false',
    NO_COLOR: '1',
  };
  const wrangler = join(ROOT, 'node_modules', '.bin', 'wrangler');
  await run(wrangler, ['deploy', '--dry-run', '--minify', '--outdir', out], {
    cwd: EXAMPLE,
    env,
    timeout: 150_000,
  });
  built = readFileSync(join(out, 'index.js'), 'utf8');
  worker = new Miniflare({
    modules: true,
    script: built,
    compatibilityDate: '2024-09-23',
    bindings: { SVC_BASE_URL: server().url, SVC_API_KEY: DEMO.projectKey },
  });
  await worker.ready;
}, 180_000);

afterAll(async () => {
  await worker?.dispose();
  if (out) rmSync(out, { recursive: true, force: true });
});

const submit = (fields: Record<string, string>) =>
  worker.dispatchFetch('http://worker.test/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

describe('examples/cloudflare-worker builds with wrangler, nodejs_compat off', () => {
  it('the wrangler config sets no compatibility flag', () => {
    expect(readFileSync(join(EXAMPLE, 'wrangler.toml'), 'utf8')).not.toMatch(/^\s*compatibility_flags/m);
  });

  it('the built Worker imports no Node built-in', () => {
    expect(built).not.toMatch(/\bfrom\s*["'](node:)?(fs|http|crypto|stream|buffer)["']/);
    expect(built).not.toMatch(/\brequire\(["']/);
  });
});

describe('the built Worker verifies a token in workerd against the reference server', () => {
  it('accepts a form with a passing token, then rejects its replay', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const first = await submit({ message: 'hello', 'svc-verification-token': token });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ decision: 'accept', message: 'hello' });
    const replay = await submit({ message: 'again', 'svc-verification-token': token });
    expect(replay.status).toBe(403);
    expect(await replay.json()).toEqual({ decision: 'reject' });
    expect(server().admin.stats().verificationFetches).toBe(1);
  });

  it('rejects a form without a token and a failed verification (403, no reason shown)', async () => {
    expect((await submit({ message: 'no token' })).status).toBe(403);
    const { token } = server().admin.createVerification({ passed: false });
    const failed = await submit({ 'svc-verification-token': token });
    expect(failed.status).toBe(403);
    expect(await failed.json()).toEqual({ decision: 'reject' });
  });
});
