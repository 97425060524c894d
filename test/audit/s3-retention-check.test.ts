import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectRetentionCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionShortfall } from '../../src/node/audit-store/s3-retention.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { bucketMachine, HOUR, seedHourBefore } from './helpers.js';

// Item 6 of #41: with --retain-days, a run reads back the retention of a probe it wrote with it
// (before any object of the archive) and stops with one line and exit 1 when the store did not
// keep it, instead of reporting an archive as write-once that is not.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
let keeps: S3TestServer;
let ignores: S3TestServer;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  keeps = await startS3Server();
  ignores = await startS3Server({ objectLock: 'ignored' });
  root = mkdtempSync(join(tmpdir(), 'svc-s3-retain-'));
}, 180_000);
afterAll(async () => {
  await keeps?.close();
  await ignores?.close();
  rmSync(root, { recursive: true, force: true });
});

const seed = () => seedHourBefore(server(), T0);

/** `svc audit sync --dir URL --retain-days DAYS ...` on a fresh machine against `s3`. */
function sync(s3: S3TestServer, url: string, extra: string[]) {
  return runBin(['audit', 'sync', '--dir', url, '--since', new Date(T0 - 3 * HOUR).toISOString(), ...extra], {
    env: bucketMachine(root, s3.env, server().url),
  });
}

describe('--retain-days on a store that accepts and ignores the Object Lock headers: one line naming retention, exit 1, nothing written', () => {
  it('svc audit sync --retain-days 365 stops before the archive has an object, and reports nothing as retained', async () => {
    seed();
    await ignores.createBucket('ignored-lock');
    const run = await sync(ignores, 's3://ignored-lock/audit/prod', ['--retain-days', '365']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'svc: s3://ignored-lock/audit/prod: the store did not keep the Object Lock retention asked for (--retain-days 365, GOVERNANCE): it reports no retention on an object written with it, so nothing in this archive would be write-once; nothing was written. Use a bucket with Object Lock on a store that supports it, or run without --retain-days',
    ]);
    // Not a run, not a manifest, not the lock, and the probe removed again.
    expect([...(await ignores.objects('ignored-lock')).keys()]).toEqual([]);
  }, 60_000);

  it('without --retain-days the same store archives as before (the check asks nothing of it)', async () => {
    seed();
    await ignores.createBucket('ignored-plain');
    const run = await sync(ignores, 's3://ignored-plain/audit', []);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^head sha256:[0-9a-f]{64} manifest-000001\.json$/m);
  }, 60_000);
});

describe('--retain-days on a store that keeps Object Lock: the read-back passes and every object is retained', () => {
  it.each([
    ['governance', 'GOVERNANCE'],
    ['compliance', 'COMPLIANCE'],
  ] as const)(
    '--retain-mode %s: exit 0, the manifest retained in that mode',
    async (mode, wire) => {
      seed();
      const bucket = `kept-${mode}`;
      await keeps.createBucket(bucket, { objectLock: true });
      const run = await sync(keeps, `s3://${bucket}/audit`, ['--retain-days', '365', '--retain-mode', mode]);
      expect(run.code, run.stderr).toBe(0);
      const keys = [...(await keeps.objects(bucket)).keys()];
      expect(keys.some((key) => key.includes('.svc-probe-'))).toBe(false);
      const client = keeps.client();
      const kept = await client.send(
        new GetObjectRetentionCommand({ Bucket: bucket, Key: 'audit/manifest-000001.json' }),
      );
      client.destroy();
      expect(kept.Retention?.Mode).toBe(wire);
    },
    60_000,
  );
});

describe('what counts as kept: the mode asked and a date no earlier (whole seconds allowed)', () => {
  const asked = { mode: 'GOVERNANCE', until: new Date('2027-03-02T12:00:00.250Z'), days: 365 } as const;
  it.each([
    ['none at all', null, 'it reports no retention on an object written with it'],
    [
      'another mode',
      { mode: 'COMPLIANCE', until: '2027-03-02T12:00:00.250Z' },
      'it kept mode COMPLIANCE, not GOVERNANCE',
    ],
    [
      'an earlier date (a store capping retention)',
      { mode: 'GOVERNANCE', until: '2026-04-01T12:00:00.000Z' },
      'it kept GOVERNANCE until 2026-04-01T12:00:00.000Z, not until 2027-03-02T12:00:00.250Z',
    ],
  ] as const)('%s is a shortfall', (_, kept, words) => {
    expect(retentionShortfall(asked, kept)).toBe(words);
  });
  it.each([
    ['the date asked', '2027-03-02T12:00:00.250Z'],
    ['the date cut to whole seconds', '2027-03-02T12:00:00.000Z'],
    ['a later date (a longer bucket default)', '2028-01-01T00:00:00.000Z'],
  ])('%s is kept', (_, until) => {
    expect(retentionShortfall(asked, { mode: 'GOVERNANCE', until })).toBeUndefined();
  });
});
