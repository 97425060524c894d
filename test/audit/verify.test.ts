import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { forgeManifest } from '../security/archive-forgery.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const pem = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};
const signer = pem();
let dir: string;
let client: SvcClient;

/** Three signed runs, one hour apart, the second gzip. */
async function threeRuns(between?: (run: number) => void): Promise<void> {
  server().admin.addAuditEvents({
    count: 300,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 + 1.8 * HOUR),
  });
  for (let run = 1; run <= 3; run++) {
    await syncAuditArchive(client.audit, {
      dir,
      since: iso(T0 - 3 * HOUR),
      gzip: run === 2,
      signKey: signer.privateKey,
    });
    server().admin.advanceClock(HOUR);
    between?.(run);
  }
}

const verify = (...extra: string[]) => runSvc(['audit', 'verify', dir, ...extra]);
const path = (name: string) => join(dir, name);
const writeKey = (text: string) => {
  const file = path('key.pem');
  writeFileSync(file, text);
  return file;
};

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-verify-'));
});
afterEach(() => dropScratch(dir, client));

describe('a whole archive verifies: exit 0 and no problem line', () => {
  it('passes with and without the public key', async () => {
    await threeRuns();
    const plain = await verify();
    expect(plain).toMatchObject({ code: 0, stdout: '' });
    expect(plain.stderr).toMatch(/archive whole: 3 runs, 300 events/);
    expect((await verify('--public-key', writeKey(signer.publicKey))).code).toBe(0);
    const result = await verifyAuditArchive(dir, { publicKey: signer.publicKey });
    expect(result).toMatchObject({ ok: true, runs: 3, events: 300, problems: [] });
  });
});

describe('verify catches each kind of damage, exit 1, one line per problem', () => {
  it('one byte changed in a data file', async () => {
    await threeRuns();
    const file = path('audit-000001.ndjson');
    const bytes = readFileSync(file);
    bytes[10] = bytes[10] === 0x41 ? 0x42 : 0x41;
    writeFileSync(file, bytes);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('audit-000001.ndjson: sha256 or size differs from manifest-000001.json\n');
  });

  it('a data file deleted', async () => {
    await threeRuns();
    unlinkSync(path('audit-000002.ndjson.gz'));
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('audit-000002.ndjson.gz: missing (listed in manifest-000002.json)\n');
  });

  it('a manifest edited', async () => {
    await threeRuns();
    const file = path('manifest-000002.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"alreadyArchived": \d+/, '"alreadyArchived": 0'));
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest-000003\.json: does not match the sha256 of manifest-000002\.json/m);
  });

  it('the newest manifest edited: caught against the sync state', async () => {
    await threeRuns();
    const file = path('manifest-000003.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"countMatches": true', '"countMatches": true '));
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest-000003\.json: does not match the sha256 the sync state recorded/m);
  });

  it('a manifest removed from the middle', async () => {
    await threeRuns();
    unlinkSync(path('manifest-000002.json'));
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest-000002\.json: missing \(run 2\)$/m);
  });

  it('a signature by another key', async () => {
    await threeRuns();
    const run = await verify('--public-key', writeKey(pem().publicKey));
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'manifest-000001.json: signature missing or not made by the given key',
      'manifest-000002.json: signature missing or not made by the given key',
      'manifest-000003.json: signature missing or not made by the given key',
    ]);
  });

  it('a gap between runs', async () => {
    // Run 2's range moved on by half an hour, as if the events between had been lost, and the
    // chain re-linked (a sync no longer follows a state edited to skip ahead: it is rebuilt).
    await threeRuns();
    forgeManifest(dir, 'manifest-000002.json', (m) => {
      m.range.from = iso(Date.parse(m.range.from) + HOUR / 2);
    });
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^manifest-000002\.json: range starts at .* but run 1 ended at /m);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('verify usage', () => {
  it('a public key file that is not a key gives a one-line error, exit 1', async () => {
    await threeRuns();
    const run = await verify('--public-key', writeKey('not a key'));
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('verify of a directory that holds no archive', () => {
  it('an empty directory is not a whole archive (exit 1); a missing one is a usage error (exit 2)', async () => {
    const empty = await verify();
    expect(empty.code).toBe(1);
    expect(empty.stdout).toBe('.: no manifest: not an archive written by sync, or an empty one\n');
    const missing = await runSvc(['audit', 'verify', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`svc: ${join(dir, 'nope')}: no such archive folder\n`);
    writeFileSync(join(dir, 'plain'), '');
    const plain = await runSvc(['audit', 'verify', join(dir, 'plain')]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(`svc: ${join(dir, 'plain')} is not a directory\n`);
  });
});
