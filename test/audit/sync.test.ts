import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { AbortError, SvcError } from '../../src/core/errors/index.js';
import type { SyncOptions } from '../../src/node/audit-sync/options.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, DAY, dropScratch, HOUR, isNewestFirst, readAll, type WireEvent } from './helpers.js';

const server = useReferenceServer();
const MIN = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-sync-'));
});
afterEach(() => dropScratch(dir, client));

const add = (count: number, from: number, to: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });

const sync = (options: Partial<SyncOptions> = {}) => syncAuditArchive(client.audit, { dir, ...options });

/** Events of a run's file, in file order. */
function fileEvents(name: string): WireEvent[] {
  const bytes = readFileSync(join(dir, name));
  const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text === ''
    ? []
    : text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as WireEvent);
}

describe('three runs across advancing server time: every event exactly once, in order', () => {
  it('gives three files whose union, newest run first, is the API listing of the whole span', async () => {
    const since = T0 - 3 * HOUR;
    add(400, T0 - 2 * HOUR, T0 + 110 * MIN);
    // Events exactly at the first run's end: inside run 1, and re-read (not re-written) by run 2.
    add(3, T0 - 5 * MIN, T0 - 5 * MIN);
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await sync({ since: iso(since), gzip: i === 1 }));
      server().admin.advanceClock(HOUR);
    }
    expect(runs.map((r) => r.status)).toEqual(['synced', 'synced', 'synced']);
    // The range follows the server's clock, not the local one, and the runs meet.
    expect(runs.map((r) => r.to)).toEqual([iso(T0 - 5 * MIN), iso(T0 + 55 * MIN), iso(T0 + 115 * MIN)]);
    expect(runs[1]?.from).toBe(runs[0]?.to);
    expect(runs[1]?.alreadyArchived).toBeGreaterThanOrEqual(3);
    const files = runs.map((r) => fileEvents(r.file as string));
    for (const events of files) expect(isNewestFirst(events)).toBe(true);
    const expected = await readAll(server().url, {
      from: iso(since),
      to: iso(T0 + 115 * MIN),
      pageSize: 1000,
    });
    const union = [...(files[2] ?? []), ...(files[1] ?? []), ...(files[0] ?? [])];
    expect(union.map((e) => e.id)).toEqual(expected.events.map((e) => e.id));
    expect(new Set(union.map((e) => e.id)).size).toBe(403);
    for (const run of runs) expect(run.countMatches).toBe(true);
  });

  it('writes nothing when no time has passed since the last run', async () => {
    add(10, T0 - HOUR, T0 - 30 * MIN);
    expect((await sync({ since: iso(T0 - 2 * HOUR) })).status).toBe('synced');
    const again = await sync();
    expect(again.status).toBe('up-to-date');
    expect(readdirSync(dir).filter((n) => n.startsWith('manifest-'))).toEqual(['manifest-000001.json']);
  });
});

describe('late events: inside the overlap they land once in a later file; outside it they are reported', () => {
  it('writes a late event inside the overlap in the next run, once', async () => {
    add(20, T0 - HOUR, T0 - 10 * MIN);
    const first = await sync({ since: iso(T0 - 2 * HOUR) });
    const w = Date.parse(first.to as string);
    server().admin.advanceClock(HOUR);
    const late = add(2, w - 3 * MIN, w - 2 * MIN);
    const second = await sync();
    const ids = fileEvents(second.file as string).map((e) => e.id);
    expect(ids).toContain(late.newestId);
    expect(ids).toContain(late.oldestId);
    const all = [...fileEvents(first.file as string), ...fileEvents(second.file as string)].map((e) => e.id);
    expect(new Set(all).size).toBe(all.length);
    expect(second.lateEvents).toEqual([]);
    expect(second.countMatches).toBe(true);
  });

  it('reports events recorded after the overlap passed them, in the manifest, once', async () => {
    add(20, T0 - HOUR, T0 - 10 * MIN);
    const first = await sync({ since: iso(T0 - 2 * HOUR) });
    const w = Date.parse(first.to as string);
    server().admin.advanceClock(HOUR);
    add(2, w - 40 * MIN, w - 39 * MIN);
    const second = await sync();
    expect(second.lateEvents).toHaveLength(1);
    expect(second.lateEvents[0]).toMatchObject({
      apiCount: expect.any(Number),
      archivedCount: expect.any(Number),
    });
    const hole = second.lateEvents[0] as { apiCount: number; archivedCount: number };
    expect(hole.apiCount - hole.archivedCount).toBe(2);
    const manifest = JSON.parse(readFileSync(join(dir, second.manifest as string), 'utf8'));
    expect(manifest.lateEvents).toEqual(second.lateEvents);
    server().admin.advanceClock(HOUR);
    expect((await sync()).lateEvents).toEqual([]);
  });

  it('exits 5 from the CLI and says so on stderr', async () => {
    add(20, T0 - HOUR, T0 - 10 * MIN);
    const args = ['audit', 'sync', '--dir', dir, '--base-url', server().url, '--api-key', 'ak_demo_project'];
    expect((await runSvc([...args, '--since', iso(T0 - 2 * HOUR)])).code).toBe(0);
    server().admin.advanceClock(HOUR);
    add(1, T0 - 50 * MIN, T0 - 50 * MIN);
    const run = await runSvc(args);
    expect(run.stderr).toMatch(/1 late events between .* are not in the archive/);
    expect(run.code).toBe(5);
  });
});

describe('retention gap: a watermark older than what the API keeps is reported, not skipped', () => {
  it('records the gap in the manifest, warns and exits 5', async () => {
    add(20, T0 - HOUR, T0 - 10 * MIN);
    const args = ['audit', 'sync', '--dir', dir, '--base-url', server().url, '--api-key', 'ak_demo_project'];
    expect((await runSvc([...args, '--since', iso(T0 - 2 * HOUR)])).code).toBe(0);
    // The plan keeps 90 days; 100 days later the archived events have expired at the API.
    server().admin.advanceClock(100 * DAY);
    const recent = add(5, T0 + 99 * DAY, T0 + 99 * DAY + HOUR);
    const run = await runSvc(args);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/retention gap/);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000002.json'), 'utf8'));
    expect(manifest.retentionGap).toMatchObject({ from: iso(T0 - 5 * MIN), to: recent.from });
  });

  it('reports no gap while the API still returns the newest archived event', async () => {
    add(20, T0 - HOUR, T0 - 10 * MIN);
    await sync({ since: iso(T0 - 2 * HOUR) });
    server().admin.advanceClock(30 * DAY);
    expect((await sync()).retentionGap).toBeNull();
  });
});

describe('a sync directory is locked while a run holds it', () => {
  it('refuses a second run while the lock names a live process', async () => {
    writeFileSync(join(dir, 'sync.lock'), JSON.stringify({ pid: process.pid, host: hostname() }));
    await expect(sync({ since: iso(T0 - HOUR) })).rejects.toThrow(/locked by process/);
  });

  it('takes over a lock left by a process of this host that no longer runs', async () => {
    // Pid numbers this high are not handed out.
    writeFileSync(join(dir, 'sync.lock'), JSON.stringify({ pid: 2 ** 30, host: hostname() }));
    expect((await sync({ since: iso(T0 - HOUR) })).status).toBe('synced');
    expect(existsSync(join(dir, 'sync.lock'))).toBe(false);
  });

  it('refuses a lock of another host', async () => {
    writeFileSync(join(dir, 'sync.lock'), JSON.stringify({ pid: 2 ** 30, host: 'elsewhere.invalid' }));
    await expect(sync({ since: iso(T0 - HOUR) })).rejects.toBeInstanceOf(SvcError);
  });
});

describe('bounded, private state: .sync-work is 0700, lock and state 0600 whatever --file-mode says', () => {
  it('keeps the work folder, the state and the lock owner-only, the data files at fileMode', async () => {
    add(50, T0 - 2 * HOUR, T0 - HOUR);
    const controller = new AbortController();
    const modes: Record<string, number> = {};
    const stopped = sync({
      since: iso(T0 - 3 * HOUR),
      pageSize: 10,
      fileMode: 0o640,
      signal: controller.signal,
      onProgress: () => {
        for (const name of ['.sync-work', 'sync.lock', 'sync-state.json'])
          modes[name] = statSync(join(dir, name)).mode & 0o777;
        controller.abort();
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(AbortError);
    expect(modes).toEqual({ '.sync-work': 0o700, 'sync.lock': 0o600, 'sync-state.json': 0o600 });
    const done = await sync({ fileMode: 0o640 });
    expect(statSync(join(dir, done.file as string)).mode & 0o777).toBe(0o640);
    expect(statSync(join(dir, 'sync-state.json')).mode & 0o777).toBe(0o600);
  });
});

describe('a folder the sync creates is as private as its files: 0700 by default, 0750 for --file-mode 0640', () => {
  it.each([
    [undefined, 0o700],
    [0o640, 0o750],
  ])(
    'fileMode %s gives a new folder (and its new parents) %s; an existing folder keeps its mode',
    async (fileMode, expected) => {
      add(5, T0 - 2 * HOUR, T0 - HOUR);
      const fresh = join(dir, 'new', 'archive');
      await syncAuditArchive(client.audit, {
        dir: fresh,
        since: iso(T0 - 3 * HOUR),
        ...(fileMode === undefined ? {} : { fileMode }),
      });
      expect(statSync(fresh).mode & 0o777).toBe(expected);
      expect(statSync(join(dir, 'new')).mode & 0o777).toBe(expected);
      // (control) the scratch folder the test made itself is left as it was.
      const before = statSync(dir).mode & 0o777;
      await sync({ since: iso(T0 - 3 * HOUR), ...(fileMode === undefined ? {} : { fileMode }) });
      expect(statSync(dir).mode & 0o777).toBe(before);
    },
  );
});

describe('an interrupted run resumes with the same range', () => {
  it('rejects with AbortError after a page and finishes the same run when called again', async () => {
    add(3000, T0 - 2 * HOUR, T0 - HOUR);
    const controller = new AbortController();
    const stopped = sync({
      since: iso(T0 - 3 * HOUR),
      pageSize: 500,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.pages === 2) controller.abort();
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(AbortError);
    expect(readdirSync(dir).filter((n) => n.startsWith('manifest-'))).toEqual([]);
    server().admin.advanceClock(HOUR);
    const resumed = await sync({ pageSize: 500 });
    expect(resumed).toMatchObject({ resumed: true, run: 1, to: iso(T0 - 5 * MIN), events: 3000 });
    expect(existsSync(join(dir, 'sync.lock'))).toBe(false);
  });
});

describe('svc audit sync: bad flags are usage errors (exit 2), nothing is written', () => {
  it.each([
    [['--lag', '5x'], /--lag must be a duration/],
    [['--overlap', '-1'], /--overlap must be a duration/],
    [['--since', 'yesterday'], /--since must be an ISO 8601 timestamp/],
    [['--page-size', '0'], /--page-size must be between 1 and 1000/],
  ])('%j', async (flags, message) => {
    const run = await runSvc(['audit', 'sync', '--dir', dir, ...flags, '--base-url', server().url], {
      env: { SVC_API_KEY: 'ak_demo_project' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a locked directory is exit 1 with one line naming the lock file', async () => {
    writeFileSync(join(dir, 'sync.lock'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const run = await runSvc(['audit', 'sync', '--dir', dir, '--base-url', server().url], {
      env: { SVC_API_KEY: 'ak_demo_project' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('sync.lock');
  });
});

describe('a longer overlap than the one the state remembers ids for never writes an event twice', () => {
  it('re-reads only the window whose ids are known', async () => {
    add(200, T0 - 2 * HOUR, T0 + 2 * HOUR);
    await sync({ since: iso(T0 - 3 * HOUR), overlapMs: 10 * MIN });
    server().admin.advanceClock(HOUR);
    const second = await sync({ overlapMs: 3 * HOUR });
    expect(second.countMatches).toBe(true);
    const ids = [...fileEvents('audit-000001.ndjson'), ...fileEvents('audit-000002.ndjson')].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    server().admin.advanceClock(HOUR);
    await sync({ overlapMs: 3 * HOUR });
    const all = [1, 2, 3].flatMap((n) => fileEvents(`audit-00000${n}.ndjson`)).map((e) => e.id);
    expect(new Set(all).size).toBe(all.length);
  });
});
