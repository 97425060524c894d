import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runSvcMeasured } from '../helpers/built-cli.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { HOUR } from './helpers.js';

// The built CLI on an archive that names a run far past its last one: verify walks the manifests
// that exist, so one empty `manifest-99999999999999.json` is two problem lines (the runs missing
// before it, as one range, and the object itself), not a walk of 10^14 numbers.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HUGE = 'manifest-99999999999999.json';
let s3: S3TestServer;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  root = mkdtempSync(join(tmpdir(), 'svc-walk-'));
  server().admin.reset();
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({ count: 50, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0) });
}, 180_000);
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

function env(): Record<string, string> {
  const home = mkdtempSync(join(root, 'home-'));
  return {
    ...s3.env,
    TMPDIR: home,
    SVC_API_KEY: 'ak_demo_project',
    SVC_BASE_URL: server().url,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** Two runs of the built CLI into `dir`. */
async function twoRuns(dir: string): Promise<void> {
  for (let night = 0; night < 2; night++) {
    const run = await runSvcMeasured(
      ['audit', 'sync', '--dir', dir, '--since', iso(T0 - 3 * HOUR)],
      env(),
      root,
    );
    expect(run.code, run.stderr).toBe(0);
    server().admin.advanceClock(HOUR);
  }
}

/** verify of `dir`: exit 1, the range line, the empty object named, peak RSS < 200 MB. */
async function expectRangeReported(dir: string): Promise<void> {
  const started = performance.now();
  const verified = await runSvcMeasured(['audit', 'verify', dir], env(), root);
  const ms = performance.now() - started;
  expect(verified.code, verified.stderr).toBe(1);
  const lines = verified.stdout.trim().split('\n');
  expect(lines.filter((line) => line.includes('missing'))).toEqual([
    expect.stringMatching(/manifest-000003\.json: missing \(runs 3-99999999999998, /),
  ]);
  expect(lines.some((line) => line.includes(`${HUGE}: not a manifest sync writes`))).toBe(true);
  expect(verified.stderr).toContain('archive not whole');
  expect(verified.peakMb).toBeLessThan(200);
  expect(ms).toBeLessThan(20_000);
}

describe('verify walks the manifests that exist: runs missing between two are one range', () => {
  it('a folder archive of 2 runs and an empty manifest-99999999999999.json: one range line, exit 1', async () => {
    const dir = join(root, 'folder');
    mkdirSync(dir);
    await twoRuns(dir);
    writeFileSync(join(dir, HUGE), '');
    await expectRangeReported(dir);
  }, 120_000);

  it('an S3 prefix of 2 runs and an empty object manifest-99999999999999.json: one range line, exit 1', async () => {
    await s3.createBucket('walk');
    await twoRuns('s3://walk/audit');
    await s3
      .client()
      .send(new PutObjectCommand({ Bucket: 'walk', Key: `audit/${HUGE}`, Body: new Uint8Array(0) }));
    await expectRangeReported('s3://walk/audit');
  }, 120_000);
});

describe('a run number past 2^53-1 is refused with one line', () => {
  it('manifest-99999999999999999999.json: named once as past the cap, never walked to', async () => {
    const dir = join(root, 'past-cap');
    mkdirSync(dir);
    await twoRuns(dir);
    writeFileSync(join(dir, 'manifest-99999999999999999999.json'), '');
    const verified = await runSvcMeasured(['audit', 'verify', dir], env(), root);
    expect(verified.code).toBe(1);
    expect(verified.stdout.trim().split('\n')).toEqual([
      `manifest-99999999999999999999.json: run number past ${Number.MAX_SAFE_INTEGER}, the most a manifest name may hold`,
    ]);
    expect(verified.peakMb).toBeLessThan(200);
  }, 120_000);
});

describe('a manifest name that is not one of the chain is named once: run 0, a second name of a run', () => {
  it('manifest-000000.json and manifest-0000001.json beside a whole chain: one line each, run 1 walked once', async () => {
    const dir = join(root, 'odd-names');
    mkdirSync(dir);
    await twoRuns(dir);
    writeFileSync(join(dir, 'manifest-000000.json'), '');
    copyFileSync(join(dir, 'manifest-000001.json'), join(dir, 'manifest-0000001.json'));
    const verified = await runSvcMeasured(['audit', 'verify', dir], env(), root);
    expect(verified.code).toBe(1);
    expect(verified.stdout.trim().split('\n').sort()).toEqual([
      'manifest-000000.json: run number 0: runs start at 1',
      "manifest-0000001.json: names run 1, as manifest-000001.json does: one is not sync's",
    ]);
    expect(verified.stderr).toContain('2 problems in 2 runs');
  }, 120_000);
});
