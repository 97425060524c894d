import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../src/audit/schemas.js';
import type { SvcClient } from '../../src/client.js';
import { FolderStore } from '../../src/node/audit-store/folder-store.js';
import { searchAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// `svc audit search` over an archive (#43 items 1 and 2): twenty queries equal a filter written
// out by hand over the events the API holds; the archived lines come back byte for byte; a changed
// byte is an error naming the file; an open gap shows in the footer and in the JSON.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;
const all: AuditEvent[] = [];

const svc = (...args: string[]) =>
  runSvc([...args, '--base-url', server().url], { env: { SVC_API_KEY: 'ak_demo_project' } });
const add = (count: number, from: number, to: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });

beforeAll(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-search-'));
  // Two nights: the second gzipped, so both kinds of data file are read.
  add(300, T0 - 20 * HOUR, T0 - 2 * HOUR);
  expect((await svc('audit', 'sync', '--dir', dir, '--since', iso(T0 - 24 * HOUR))).code).toBe(0);
  server().admin.advanceClock(12 * HOUR);
  add(300, T0 + HOUR, T0 + 10 * HOUR);
  expect((await svc('audit', 'sync', '--dir', dir, '--gzip')).code).toBe(0);
  for await (const event of client.audit.events({ from: iso(T0 - 24 * HOUR), to: iso(T0 + 12 * HOUR) }))
    all.push(event);
  expect(all).toHaveLength(600);
}, 60_000);
afterAll(() => dropScratch(dir, client));

/** The ids `svc audit search --dir DIR ...` printed as NDJSON, in order. */
async function searched(...args: string[]): Promise<string[]> {
  const run = await svc('-o', 'ndjson', 'audit', 'search', '--dir', dir, ...args);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as AuditEvent).id);
}

const sorted = (ids: string[]) => [...ids].sort();
const a = (e: AuditEvent) => e.actor as Record<string, unknown>;
const lower = (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : '');
const at = (e: AuditEvent) => Date.parse(e.occurredAt);

describe('a search over an archive finds what a direct filter of the same events finds', () => {
  const some = () => all[17] as AuditEvent;
  const queries: Array<[string, () => string[], (e: AuditEvent) => boolean]> = [
    ['type', () => [`type:${some().type}`], (e) => e.type === some().type],
    ['type prefix', () => ['type:platform.user.*'], (e) => e.type.startsWith('platform.user.')],
    ['action', () => ['action:updated'], (e) => e.action === 'updated'],
    ['actor.type API_KEY', () => ['actor.type:API_KEY'], (e) => e.actor.type === 'API_KEY'],
    [
      'actor.type SYSTEM (schemaVersion 1 too)',
      () => ['actor.type:system'],
      (e) => e.actor.type === 'SYSTEM',
    ],
    ['actor by user', () => ['actor:usr_alice'], (e) => a(e).userId === 'usr_alice'],
    ['actor by API key', () => ['actor:key_siem'], (e) => a(e).apiKeyId === 'key_siem'],
    ['not a user', () => ['-actor.type:USER'], (e) => e.actor.type !== 'USER'],
    ['subject by label', () => ['subject:"Demo project"'], (e) => lower(e.subject?.label) === 'demo project'],
    ['subject kind', () => ['subject:platform.user'], (e) => e.subject?.kind === 'platform.user'],
    ['one event by id', () => [`id:${some().id}`], (e) => e.id === some().id],
    ['a changed field', () => ['field:*'], (e) => (e.changes ?? []).length > 0],
    ['no change', () => ['-field:*'], (e) => (e.changes ?? []).length === 0],
    ['sign-ins with an IP', () => ['ip:*'], (e) => typeof e.details?.ipAddress === 'string'],
    ['origin namespace', () => ['origin.namespace:CAPTCHA'], (e) => lower(e.origin?.namespace) === 'captcha'],
    ['occurred after', () => [`occurred:>=${iso(T0)}`], (e) => at(e) >= T0],
    [
      'occurred range',
      () => [`occurred:${iso(T0 - 10 * HOUR)}..${iso(T0 - 5 * HOUR)}`],
      (e) => at(e) >= T0 - 10 * HOUR && at(e) <= T0 - 5 * HOUR,
    ],
    ['a day', () => ['occurred:2026-03-02'], (e) => e.occurredAt.startsWith('2026-03-02')],
    [
      'OR',
      () => ['actor.type:AUTOMATION', 'OR', 'actor.type:ANONYMOUS'],
      (e) => ['AUTOMATION', 'ANONYMOUS'].includes(e.actor.type),
    ],
    [
      'AND with negation',
      () => ['type:platform.user.*', '-action:authenticated'],
      (e) => e.type.startsWith('platform.user.') && e.action !== 'authenticated',
    ],
  ];
  it.each(queries)('%s', async (_name, args, filter) => {
    const expected = all.filter(filter).map((e) => e.id);
    expect(expected.length, 'the query selects something').toBeGreaterThan(0);
    expect(expected.length, 'and not everything').toBeLessThan(all.length);
    expect(sorted(await searched(...args()))).toEqual(sorted(expected));
  });

  it('--from/--to cut the range, the empty query gives every event of it once', async () => {
    const ids = await searched('--from', iso(T0 - 12 * HOUR), '--to', iso(T0 + 2 * HOUR));
    expect(sorted(ids)).toEqual(
      sorted(all.filter((e) => at(e) >= T0 - 12 * HOUR && at(e) <= T0 + 2 * HOUR).map((e) => e.id)),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('ndjson gives the archived lines byte for byte', () => {
  it('every line of the data files, and nothing else', async () => {
    const run = await svc('-o', 'ndjson', 'audit', 'search', '--dir', dir);
    const archived = readdirSync(dir)
      .filter((name) => /^audit-\d+\.ndjson(\.gz)?$/.test(name))
      .flatMap((name) => {
        const bytes = readFileSync(join(dir, name));
        return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes)
          .toString('utf8')
          .split('\n')
          .filter(Boolean);
      });
    expect(sorted(run.stdout.split('\n').filter(Boolean))).toEqual(sorted(archived));
  });
});

describe('every answer says what it read: the head, the range, whether it is whole', () => {
  it('stderr for data formats, a footer field in JSON', async () => {
    const text = await svc('-o', 'ndjson', 'audit', 'search', '--dir', dir, 'actor.type:API_KEY');
    expect(text.stderr).toMatch(
      /^read .*: head manifest-000002\.json sha256:[0-9a-f]{64}; \S+ to \S+, whole; 2 files, 600 events read, \d+ matched$/m,
    );
    const json = JSON.parse(
      (await svc('-o', 'json', 'audit', 'search', '--dir', dir, 'actor.type:API_KEY')).stdout,
    );
    expect(json.footer).toMatchObject({
      whole: true,
      complete: true,
      files: 2,
      events: 600,
      gaps: [],
      incomplete: [],
    });
    expect(json.footer.head.manifest).toBe('manifest-000002.json');
    expect(json.events).toHaveLength(json.footer.matched);
  });
  it('the library: the same footer once the matches are read', async () => {
    const search = searchAuditArchive(dir, { query: 'actor.type:API_KEY' });
    let n = 0;
    for await (const match of search) n += match.event.actor.type === 'API_KEY' ? 1 : 0;
    expect(search.footer).toMatchObject({ whole: true, matched: n });
  });
  it('a match shows its line and file when logged or turned into JSON, never the store behind it', async () => {
    for await (const match of searchAuditArchive(dir, { query: 'actor.type:API_KEY' })) {
      expect(Object.keys(JSON.parse(JSON.stringify(match)))).toEqual(['event', 'line', 'file', 'fileSha256']);
      const shown = inspect(match, { depth: 4, showHidden: true });
      expect(shown).not.toMatch(/store|FolderStore|root/i);
      expect(match.event.id).toBe(JSON.parse(match.line.toString('utf8')).id);
      break;
    }
  });
  it('--limit stops early and says so', async () => {
    const run = await svc('-o', 'ndjson', 'audit', 'search', '--dir', dir, '--limit', '3');
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
    expect(run.stderr).toMatch(/3 matched \(stopped at --limit\)/);
  });
});

describe('a query or option that cannot be read is a usage error, exit 2', () => {
  it.each([
    [['colour:red'], /unknown qualifier colour:/],
    [['occurred:yesterday'], /is not a time/],
    [['--limit', '0'], /--limit/],
  ])('%s', async (args, message) => {
    const run = await svc('audit', 'search', '--dir', dir, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('against the API (no --dir): the range read and filtered, said as such', () => {
  it('equals the direct filter of the same range', async () => {
    // The server is reset after each test: this one seeds its own events.
    server().admin.freezeClock(true);
    server().admin.setNow(T0);
    add(200, T0 - 20 * HOUR, T0 - HOUR);
    const range = { from: iso(T0 - 21 * HOUR), to: iso(T0) };
    const events: AuditEvent[] = [];
    for await (const event of client.audit.events(range)) events.push(event);
    const run = await svc(
      '-o',
      'ndjson',
      'audit',
      'search',
      'actor.type:API_KEY',
      '--from',
      range.from,
      '--to',
      range.to,
    );
    expect(run.code, run.stderr).toBe(0);
    const ids = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as AuditEvent).id);
    const expected = events.filter((e) => e.actor.type === 'API_KEY').map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(sorted(ids)).toEqual(sorted(expected));
    expect(run.stderr).toMatch(
      /read the API: .* 200 events read, \d+ matched \(no archive, so nothing was checked against manifests\)/,
    );
  });
});

describe('a changed byte in an archived file is an error naming the file, never a count', () => {
  it('exit 1, one line, no event of it printed', async () => {
    const name = 'audit-000001.ndjson';
    const path = join(dir, name);
    const original = readFileSync(path);
    const changed = Buffer.from(original);
    // Within an id: the line still parses, only the manifest's sha256 tells.
    const at = changed.indexOf('"id":"') + 7;
    changed[at] = changed[at] === 0x61 ? 0x62 : 0x61;
    writeFileSync(path, changed);
    try {
      const run = await svc(
        '-o',
        'ndjson',
        'audit',
        'search',
        '--dir',
        dir,
        '--from',
        iso(T0 - 20 * HOUR),
        '--to',
        iso(T0 - 3 * HOUR),
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `${name}: sha256 or size differs from its manifest \\(listed in manifest-000001\\.json\\)`,
        ),
      );
    } finally {
      writeFileSync(path, original);
    }
  });
});

describe('a file changed between its check and its read is an error too (the bytes read are hashed)', () => {
  it('the library: the search of that file ends in an error naming it', async () => {
    const name = 'audit-000001.ndjson';
    const path = join(dir, name);
    const original = readFileSync(path);
    const changed = Buffer.from(original);
    const at = changed.indexOf('"id":"') + 7;
    changed[at] = changed[at] === 0x61 ? 0x62 : 0x61;
    // The file is swapped for the changed one once its check (the first read) is over.
    let reads = 0;
    const readStream = FolderStore.prototype.readStream;
    const spy = vi.spyOn(FolderStore.prototype, 'readStream').mockImplementation(async function (
      this: FolderStore,
      file,
      options,
    ) {
      if (file === name && ++reads === 2) writeFileSync(path, changed);
      return readStream.call(this, file, options);
    });
    try {
      const search = searchAuditArchive(dir, { from: iso(T0 - 20 * HOUR), to: iso(T0 - 3 * HOUR) });
      const error = await (async () => {
        for await (const _ of search);
      })().catch((e: unknown) => e);
      expect(reads).toBe(2);
      expect(String(error)).toMatch(
        new RegExp(`${name}: its bytes as read differ from its manifest \\(sha256\\): changed while read`),
      );
      expect(search.footer?.complete).toBe(false);
    } finally {
      spy.mockRestore();
      writeFileSync(path, original);
    }
  });
});

describe('an open gap in the range: the footer and the JSON name it, the search still answers', () => {
  it('late events after the overlap make run 2 record a gap; search says NOT whole', async () => {
    const scratch = archiveScratch(server(), T0, 'svc-audit-search-gap-');
    try {
      const sync = (...extra: string[]) => svc('audit', 'sync', '--dir', scratch.dir, ...extra);
      add(20, T0 - HOUR, T0 - 10 * 60_000);
      expect((await sync('--since', iso(T0 - 2 * HOUR))).code).toBe(0);
      server().admin.advanceClock(HOUR);
      // Recorded late: inside run 1's range, after the overlap of run 2 passed them.
      add(2, T0 - 45 * 60_000, T0 - 44 * 60_000);
      expect((await sync()).code).toBe(5);
      const search = (...args: string[]) => svc('audit', 'search', '--dir', scratch.dir, ...args);
      const run = await search('-o', 'ndjson');
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/NOT whole/);
      expect(run.stderr).toMatch(/not whole: gap run2\.late1 open: 2 late events missing between /);
      const json = JSON.parse((await search('-o', 'json')).stdout);
      expect(json.footer.whole).toBe(false);
      expect(json.footer.gaps).toMatchObject([
        { id: 'run2.late1', cause: 'late', events: 2, status: 'open' },
      ]);
      // The gap spans the run that holds fewer events than the API (run 1's range); a range after it is whole.
      expect(json.footer.gaps[0].to).toBe(iso(T0 - 15 * 60_000 - 1));
      const after = JSON.parse((await search('-o', 'json', '--from', iso(T0 - 10 * 60_000))).stdout);
      expect(after.footer).toMatchObject({ whole: true, gaps: [] });
    } finally {
      await dropScratch(scratch.dir, scratch.client);
    }
  });
});
