import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, DAY, dropScratch, HOUR } from './helpers.js';

const server = useReferenceServer();
const MIN = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;
let keyDir: string;
let keys: { sign: string; verify: string };

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-gaps-'));
  // The signing key lives outside the archive (sync refuses a key inside it).
  keyDir = mkdtempSync(join(tmpdir(), 'svc-audit-gaps-keys-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  keys = { sign: join(keyDir, 'sign.pem'), verify: join(keyDir, 'verify.pem') };
  writeFileSync(keys.sign, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(keys.verify, publicKey.export({ type: 'spki', format: 'pem' }));
});
afterEach(async () => {
  await dropScratch(dir, client);
  rmSync(keyDir, { recursive: true, force: true });
});

const add = (count: number, from: number, to: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });
const svc = (...args: string[]) =>
  runSvc([...args, '--base-url', server().url], { env: { SVC_API_KEY: 'ak_demo_project' } });
const sync = (...extra: string[]) => svc('audit', 'sync', '--dir', dir, '--sign-key', keys.sign, ...extra);
const verify = () => runSvc(['audit', 'verify', dir, '--public-key', keys.verify]);

/** Night 1 archives 20 events; two events recorded late, after the overlap passed them, make night 2 exit 5. */
async function lateNight(): Promise<void> {
  add(20, T0 - HOUR, T0 - 10 * MIN);
  expect((await sync('--since', iso(T0 - 2 * HOUR))).code).toBe(0);
  expect((await verify()).code).toBe(0);
  server().admin.advanceClock(HOUR);
  add(2, T0 - 45 * MIN, T0 - 44 * MIN);
  const night2 = await sync();
  expect(night2.code).toBe(5);
  expect(night2.stderr).toMatch(/2 late events .* svc audit sync --backfill fetches them/);
  const failing = await verify();
  expect(failing.code).toBe(1);
  expect(failing.stdout).toMatch(
    /^manifest-000002\.json: 2 late events .* \(gap run2\.late1: repair with sync --backfill/m,
  );
}

describe('gaps repaired: --backfill fetches late events the API still holds, and the next night is green', () => {
  it('exits 5, lists the gap, repairs it as a signed run of its own, then sync and verify exit 0', async () => {
    await lateNight();
    const listed = await svc('audit', 'gaps', '--dir', dir);
    expect(listed.code).toBe(5);
    expect(listed.stdout).toMatch(/^run2\.late1 open: late, .* 2 events, the API may still hold them$/m);
    const json = JSON.parse((await svc('-o', 'json', 'audit', 'gaps', '--dir', dir)).stdout);
    expect(json.gaps).toMatchObject([
      { id: 'run2.late1', cause: 'late', events: 2, status: 'open', mayStillHold: true },
    ]);

    const backfill = await sync('--backfill');
    expect(backfill.code).toBe(0);
    expect(backfill.stderr).toMatch(
      /backfill: repaired run2\.late1, last run 3 \(2 events to audit-000003\.ndjson\)/,
    );
    expect(backfill.stdout).toMatch(/^head sha256:[0-9a-f]{64} manifest-000003\.json$/m);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000003.json'), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'backfill', repairs: ['run2.late1'], countMatches: true });
    expect(readFileSync(join(dir, 'audit-000003.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(2);

    server().admin.advanceClock(HOUR);
    expect((await sync()).code).toBe(0);
    const green = await verify();
    expect(green.code).toBe(0);
    expect(green.stderr).toMatch(/gap run2\.late1 \(.*\) repaired by manifest-000003\.json/);
    expect((await svc('audit', 'gaps', '--dir', dir)).code).toBe(0);
  });
});

describe('gaps acknowledged: once the API no longer holds them, gaps ack records it in the next manifest', () => {
  it('backfill says they expired (exit 5); ack; the next night exits 0 and verify shows the acknowledgement', async () => {
    await lateNight();
    // The late events (T0 - 45 min) are past the plan's 90 days, the newest archived one not yet.
    server().admin.setNow(T0 + 90 * DAY - 30 * MIN);
    const backfill = await sync('--backfill');
    expect(backfill.code).toBe(5);
    expect(backfill.stderr).toMatch(/no longer held by the API .*: run2\.late1/);
    expect((await svc('audit', 'gaps', '--dir', dir)).stdout).toMatch(
      /^run2\.late1 open: .* the API no longer holds them$/m,
    );

    const ack = await svc(
      'audit',
      'gaps',
      'ack',
      'run2.late1',
      '--reason',
      'expired before the backfill ran',
      '--dir',
      dir,
    );
    expect(ack.stderr).toMatch(/gap run2\.late1 .* acknowledged; the next sync run records it/);
    expect(ack.code).toBe(0);
    const night3 = await sync();
    expect(night3.code).toBe(0);
    expect(night3.stderr).toMatch(/acknowledged run2\.late1/);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000003.json'), 'utf8'));
    expect(manifest.acknowledged).toMatchObject([
      { gap: 'run2.late1', reason: 'expired before the backfill ran' },
    ]);
    const green = await verify();
    expect(green.code).toBe(0);
    expect(green.stderr).toMatch(
      /gap run2\.late1 .* acknowledged in manifest-000003\.json: expired before the backfill ran/,
    );
  });

  it('an unknown gap, an empty reason or a reason of many lines is refused (exit 2), nothing recorded', async () => {
    await lateNight();
    const before = readFileSync(join(dir, 'sync-state.json'), 'utf8');
    for (const [gap, reason] of [
      ['run9.late1', 'why'],
      ['run2.late1', '  '],
      ['run2.late1', 'one\ntwo'],
    ] as const) {
      const run = await svc('audit', 'gaps', 'ack', gap, '--reason', reason, '--dir', dir);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(readFileSync(join(dir, 'sync-state.json'), 'utf8')).toBe(before);
  });
});
