import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { CheckpointError } from '../../src/core/errors/error-classes.js';
import { parseManifest, serializeManifest } from '../../src/node/audit-archive/manifest.js';
import { readSyncState } from '../../src/node/audit-archive/state.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import { FolderStore } from '../../src/node/audit-store/folder-store.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR, tamperedCopy } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
// biome-ignore lint/suspicious/noExplicitAny: the tests edit parsed JSON files field by field
type Json = any;

const ESC = '\u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE';

/** An archive of two runs written by sync (read only: each test tampers a copy). */
let archive: string;
let client: SvcClient;
let scratch: string;
beforeAll(async () => {
  ({ dir: archive, client } = archiveScratch(server(), T0, 'svc-archive-fields-'));
  server().admin.addAuditEvents({ count: 5, scope: 'project', from: iso(T0 - HOUR), to: iso(T0 - 60_000) });
  await syncAuditArchive(client.audit, { dir: archive, since: iso(T0 - 2 * HOUR) });
  server().admin.advanceClock(HOUR);
  server().admin.addAuditEvents({ count: 3, scope: 'project', from: iso(T0), to: iso(T0 + 30 * 60_000) });
  await syncAuditArchive(client.audit, { dir: archive });
  scratch = mkdtempSync(join(tmpdir(), 'svc-archive-fields-copies-'));
});
afterAll(async () => {
  await dropScratch(archive, client);
  rmSync(scratch, { recursive: true, force: true });
});

let copies = 0;
/** A copy of the archive with `edit` applied to one of its JSON files. */
const tampered = (file: string, edit: (json: Json) => void): string =>
  tamperedCopy(archive, join(scratch, String(++copies)), { [file]: edit });

const manifest = () => JSON.parse(readFileSync(join(archive, 'manifest-000001.json'), 'utf8'));
const reason = (edit: (json: Json) => void) => {
  const json = manifest();
  edit(json);
  const parsed = parseManifest(JSON.stringify(json));
  return parsed.ok ? 'accepted' : parsed.reason;
};

const BAD_STAMPS = [
  ESC,
  '',
  '2026-03-02',
  '2026-03-02 12:00:00',
  'yesterday',
  '2026-03-02T12:00:00',
  1_700_000_000,
];

describe('manifest timestamps are ISO 8601 date-times with a zone, as sync writes them', () => {
  it('the manifests sync wrote are accepted, and a zone offset or no fraction is too', () => {
    expect(reason(() => {})).toBe('accepted');
    expect(reason((m) => (m.serverNow = '2026-03-02T13:00:00+01:00'))).toBe('accepted');
    expect(reason((m) => (m.range.to = '2026-03-02T12:00:00Z'))).toBe('accepted');
  });

  it.each([
    ['range.from', (m: Json, v: unknown) => (m.range.from = v)],
    ['query.to', (m: Json, v: unknown) => (m.query.to = v)],
    ['serverNow', (m: Json, v: unknown) => (m.serverNow = v)],
    ['files.0.firstOccurredAt', (m: Json, v: unknown) => (m.files[0].firstOccurredAt = v)],
    [
      'lateEvents.0.from',
      (m: Json, v: unknown) => (m.lateEvents = [{ from: v, to: m.range.to, apiCount: 2, archivedCount: 0 }]),
    ],
    [
      'retentionGap.to',
      (m: Json, v: unknown) =>
        (m.retentionGap = { from: m.range.from, to: v, apiCount: null, archivedCount: null }),
    ],
    [
      'acknowledged.0.at',
      (m: Json, v: unknown) => (m.acknowledged = [{ gap: 'run1.late1', reason: 'checked', at: v }]),
    ],
  ])('%s: anything else is refused, naming the field', (field, set) => {
    for (const value of BAD_STAMPS) expect(reason((m) => set(m, value))).toMatch(new RegExp(`^${field}: `));
  });
});

describe('names in a manifest are the plain names sync writes', () => {
  it('data, conflicts and manifest names of the forms sync writes are accepted', () => {
    for (const name of [
      'audit-000001.ndjson',
      'audit-000001.ndjson.gz',
      'audit-1234567.ndjson',
      'conflicts-000002.ndjson',
    ])
      expect(reason((m) => (m.files[0].name = name))).toBe('accepted');
    expect(reason((m) => (m.previous = { name: 'manifest-000007.json', sha256: 'a'.repeat(64) }))).toBe(
      'accepted',
    );
  });

  it.each([
    '../../etc/passwd',
    'sub/audit-000001.ndjson',
    'audit-000001.ndjson\u001b[2J',
    '\u202eaudit-000001.ndjson',
    'audit-1.ndjson',
    'audit-000001.ndjson\n',
    'manifest-000001.json',
    'sync-state.json',
    '',
  ])('a listed file named %j is refused', (name) => {
    expect(reason((m) => (m.files[0].name = name))).toMatch(/^files\.0\.name: must be a data file name/);
  });

  it('previous names a manifest by its name and a sha256 in hex; gap ids have their form', () => {
    expect(reason((m) => (m.previous = { name: `../${ESC}`, sha256: 'a'.repeat(64) }))).toMatch(
      /^previous\.name: must be a manifest name/,
    );
    expect(reason((m) => (m.previous = { name: 'manifest-000001.json', sha256: 'A'.repeat(64) }))).toMatch(
      /^previous\.sha256: /,
    );
    expect(reason((m) => (m.files[0].sha256 = `${'a'.repeat(63)}\u001b`))).toMatch(/^files\.0\.sha256: /);
    expect(reason((m) => (m.repairs = [ESC]))).toMatch(/^repairs\.0: must be a gap id/);
    expect(reason((m) => (m.repairs = ['run3.late1', 'run2.retention', 'run9.conflicts']))).toBe('accepted');
  });
});

describe('sync state timestamps and names are validated when read', () => {
  it('the state sync wrote is read', async () => {
    expect((await readSyncState(new FolderStore(archive)))?.runs).toBe(2);
  });

  it.each([
    ['watermark', (s: Json) => (s.watermark = ESC)],
    ['ranges.0.from', (s: Json) => (s.ranges[0].from = '2026-03-02')],
    ['newest.occurredAt', (s: Json) => (s.newest.occurredAt = 'yesterday')],
    ['lastManifest.name', (s: Json) => (s.lastManifest.name = '../manifest-000002.json')],
    ['lastManifest.sha256', (s: Json) => (s.lastManifest.sha256 = ESC)],
    ['acks.0.at', (s: Json) => (s.acks = [{ gap: 'run2.late1', reason: 'checked', at: ESC }])],
    ['acks.0.gap', (s: Json) => (s.acks = [{ gap: ESC, reason: 'checked', at: iso(T0) }])],
    ['expired.0', (s: Json) => (s.expired = ['run1.late1\u202e'])],
  ])('%s breaking its rule: the state is refused as not a sync state', async (_field, edit) => {
    const dir = tampered('sync-state.json', edit);
    const error = await readSyncState(new FolderStore(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).message).toMatch(/sync-state\.json is not a sync state/);
  });
});

describe('a manifest that breaks a rule: verify reports it (exit 1) and gaps says so in one line (exit 1)', () => {
  const edit = (m: Json) => (m.lateEvents = [{ from: ESC, to: m.range.to, apiCount: 2, archivedCount: 0 }]);

  it('verifyAuditArchive: bad-manifest naming the file and the field', async () => {
    const dir = tampered('manifest-000002.json', edit);
    const result = await verifyAuditArchive(dir);
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual({
      kind: 'bad-manifest',
      file: 'manifest-000002.json',
      message:
        'manifest-000002.json: not a manifest sync writes (lateEvents.0.from: must be an ISO 8601 timestamp with a zone)',
    });
  });

  it('svc audit gaps: one line naming the manifest, exit 1, no stack', async () => {
    const dir = tampered('manifest-000002.json', edit);
    const run = await runSvc(['audit', 'gaps', '--dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `svc: manifest-000002.json: not a manifest sync writes (lateEvents.0.from: must be an ISO 8601 timestamp with a zone); the gaps cannot be listed, svc audit verify ${dir} lists every problem\n`,
    );
  });

  it('svc audit gaps on a sync state that breaks a rule: one line, exit 1', async () => {
    const dir = tampered('sync-state.json', (s) => (s.watermark = ESC));
    const run = await runSvc(['audit', 'gaps', '--dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^svc: \S+sync-state\.json is not a sync state; restore it from a backup\n$/);
  });
});

describe('sync never writes a manifest that verify would refuse', () => {
  it('a manifest body with a time without a zone is refused before it is written; the body sync wrote passes', () => {
    const text = readFileSync(join(archive, 'manifest-000001.json'), 'utf8');
    const parsed = parseManifest(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    const { signature: _none, ...body } = parsed.manifest;
    expect(serializeManifest(body)).toBe(text);
    const file = body.files[0] as NonNullable<(typeof body.files)[0]>;
    const zoneless = { ...body, files: [{ ...file, firstOccurredAt: '2026-03-02T11:59:00' }] };
    expect(() => serializeManifest(zoneless)).toThrowError(
      expect.objectContaining({
        code: 'bad_archive',
        message: expect.stringMatching(/^Manifest of run 1 not written: files\.0\.firstOccurredAt: /),
      }),
    );
  });
});
