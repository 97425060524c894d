import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { spoolBytes } from '../../src/node/audit-push/spool.js';
import type { SyncOptions } from '../../src/node/audit-sync/options.js';
import {
  type AuditReceiver,
  listAuditGaps,
  startAuditReceiver,
  syncAuditArchive,
  verifyAuditArchive,
} from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR, readAll, type WireEvent } from './helpers.js';

const server = useReferenceServer();
const MIN = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let dir: string;
let client: SvcClient;
let receiver: AuditReceiver | undefined;

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-push-reconcile-'));
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await dropScratch(dir, client);
});

const sync = (options: Partial<SyncOptions> = {}) =>
  syncAuditArchive(client.audit, { dir, since: iso(T0 - 3 * HOUR), ...options });

/** A receiver on the archive, a lossy stream to it, `count` events an hour before now pushed and delivered. */
async function pushLossily(count: number, faults = { duplicateRate: 0.1, dropRate: 0.05, reorder: true }) {
  receiver = await startAuditReceiver({ dir, secrets: [SECRET], now: () => server().admin.now() });
  server().admin.createAuditStream({ url: receiver.url, secret: SECRET, scope: 'project', faults });
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0 - HOUR) });
  await server().admin.flushAuditStreams();
  return server().admin.auditStreams()[0]?.counters;
}

const spoolNames = () => readdirSync(dir).filter((name) => name.startsWith('push-'));
const lines = (name: string) =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '');

/** Writes events as a spool object, as a receiver would. */
function spool(events: WireEvent[]): string {
  const { name, bytes } = spoolBytes(
    events.map((event) => ({ line: JSON.stringify(event), id: event.id, occ: Date.parse(event.occurredAt) })),
  );
  writeFileSync(join(dir, name), bytes);
  return name;
}

async function apiEvents(): Promise<WireEvent[]> {
  return (await readAll(server().url, { from: iso(T0 - 3 * HOUR), to: iso(T0) })).events;
}

describe('sync reconciles a lossy push with the pull API: every event once, the losses fetched', () => {
  it('confirms what was pushed, fetches what was dropped, and retires the spool', async () => {
    const counters = await pushLossily(3000);
    expect(counters?.dropped).toBeGreaterThan(0);
    expect(spoolNames().length).toBeGreaterThan(0);
    const result = await sync();
    const distinctPushed = 3000 - (counters?.dropped ?? 0);
    expect(result.push).toMatchObject({
      pushed: distinctPushed,
      confirmed: distinctPushed,
      fetched: counters?.dropped,
      unconfirmed: 0,
      differing: 0,
      late: 0,
      carried: [],
    });
    expect(result.events).toBe(3000);
    expect(result.countMatches).toBe(true);
    expect(spoolNames()).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dir, result.manifest as string), 'utf8'));
    expect(manifest.push.objects.length).toBeGreaterThan(0);
    // The data file is the pull API's, byte for byte, each event once.
    const archived = lines(result.file as string);
    const api = await apiEvents();
    expect(archived.map((line) => JSON.parse(line))).toEqual(api);
    const verify = await verifyAuditArchive(dir);
    expect(verify.ok).toBe(true);
    expect((await listAuditGaps(dir)).gaps).toEqual([]);
  });
});

describe('pushed events the pull API does not confirm are kept apart, never in a data file', () => {
  it('keeps a forged event and an altered one in the conflicts file and counts them', async () => {
    server().admin.addAuditEvents({
      count: 5,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const [first, second] = await apiEvents();
    const forged = { ...(first as WireEvent), id: 'evt_forged_by_someone', occurredAt: iso(T0 - 90 * MIN) };
    const altered = { ...(second as WireEvent), action: 'altered.in.transit' };
    spool([first as WireEvent, forged, altered as WireEvent]);
    const result = await sync();
    expect(result.push).toMatchObject({ pushed: 3, confirmed: 1, unconfirmed: 1, differing: 1, fetched: 3 });
    expect(result.events).toBe(5);
    expect(result.countMatches).toBe(true);
    expect(result.conflicts).toBe(0);
    const kept = lines(result.conflictsFile as string).map((line) => JSON.parse(line));
    expect(kept).toEqual(expect.arrayContaining([forged, altered]));
    expect(kept).toHaveLength(2);
    const data = lines(result.file as string).join('\n');
    expect(data).not.toContain('evt_forged_by_someone');
    expect(data).not.toContain('altered.in.transit');
    const gaps = (await listAuditGaps(dir)).gaps;
    expect(gaps.map((gap) => gap.id)).toEqual([`run${result.run}.conflicts`]);
    expect(gaps[0]?.file).toBe(result.conflictsFile);
    // The gap names where the copies are, not that the API lost something.
    const cli = await runSvc(['audit', 'gaps', '--dir', dir]);
    expect(cli.code).toBe(5);
    expect(cli.stdout).toContain(
      `2 events kept apart in ${result.conflictsFile}: review them, then svc audit gaps ack run${result.run}.conflicts`,
    );
    expect(cli.stdout).not.toContain('no longer holds');
  });

  it('confirms a pushed copy that differs from the pulled one only in spacing', async () => {
    server().admin.addAuditEvents({
      count: 2,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const [event] = await apiEvents();
    const spaced = JSON.stringify(event, null, 1).replace(/\n/g, '');
    const { name, bytes } = spoolBytes([
      { line: spaced, id: (event as WireEvent).id, occ: Date.parse((event as WireEvent).occurredAt) },
    ]);
    writeFileSync(join(dir, name), bytes);
    const result = await sync();
    expect(result.push).toMatchObject({ pushed: 1, confirmed: 1, differing: 0, unconfirmed: 0 });
  });
});

describe('events pushed after the run ends wait in the spool for the next run', () => {
  it('carries them to a new spool object, removes the one read, and the next run confirms them', async () => {
    server().admin.addAuditEvents({
      count: 4,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    // Two events inside the lag (after the run's end, now - 5 minutes).
    server().admin.addAuditEvents({ count: 2, scope: 'project', from: iso(T0 - 2 * MIN), to: iso(T0 - MIN) });
    const all = await apiEvents();
    const read = spool(all);
    const first = await sync();
    expect(first.push?.pushed).toBe(4);
    expect(first.push?.carried).toHaveLength(1);
    const carried = first.push?.carried[0] as string;
    expect(spoolNames()).toEqual([carried]);
    expect(spoolNames()).not.toContain(read);
    expect(lines(carried)).toHaveLength(2);
    server().admin.advanceClock(HOUR);
    const second = await sync();
    expect(second.push).toMatchObject({ pushed: 2, confirmed: 2, fetched: 0 });
    expect(spoolNames()).toEqual([]);
    expect(first.events + second.events).toBe(6);
  });
});

describe('a push that comes after its window was synced is checked against the archive', () => {
  it('confirms a late copy the archive holds and keeps apart one it does not', async () => {
    // Older than the second run's query (its start minus a 60-minute overlap), inside the first's 3-hour window.
    server().admin.addAuditEvents({
      count: 3,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - 90 * MIN),
    });
    const before = await sync({ overlapMs: 3 * HOUR });
    expect(before.push).toBeNull();
    const [event] = await apiEvents();
    const stranger = { ...(event as WireEvent), id: 'evt_never_pulled', occurredAt: iso(T0 - 100 * MIN) };
    server().admin.advanceClock(4 * HOUR);
    spool([event as WireEvent, stranger]);
    const after = await sync({ overlapMs: 60 * MIN });
    expect(after.push).toMatchObject({ pushed: 2, late: 2, confirmed: 1, unconfirmed: 1 });
    expect(lines(after.conflictsFile as string).map((line) => JSON.parse(line))).toEqual([stranger]);
    // The conflict gap starts at the kept copy, older than the run's query.
    expect(after.push?.keptFrom).toBe(stranger.occurredAt);
    const [gap] = (await listAuditGaps(dir)).gaps;
    expect(gap).toMatchObject({ id: `run${after.run}.conflicts`, from: stranger.occurredAt });
  });
});

describe("pushed events older than the archive's start are outside it: counted, not kept", () => {
  it('counts them apart from pushed, keeps no conflicts file, and exits whole, on the first run and a later one', async () => {
    server().admin.addAuditEvents({
      count: 2,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const [event] = await apiEvents();
    const before = { ...(event as WireEvent), id: 'evt_before_since', occurredAt: iso(T0 - 5 * HOUR) };
    spool([event as WireEvent, before]);
    const first = await sync();
    expect(first.push).toMatchObject({ pushed: 1, confirmed: 1, unconfirmed: 0, outside: 1 });
    expect(first.conflictsFile).toBeNull();

    server().admin.advanceClock(4 * HOUR);
    spool([{ ...before, id: 'evt_before_since_2' }]);
    const second = await sync();
    expect(second.push).toMatchObject({ pushed: 0, late: 0, unconfirmed: 0, outside: 1 });
    expect(second.conflictsFile).toBeNull();
    expect(spoolNames()).toEqual([]);
    expect((await listAuditGaps(dir)).gaps).toEqual([]);
  });
});

describe('spool objects a killed run left after its manifest are removed by the next sync', () => {
  it('removes an object the head manifest names as read', async () => {
    server().admin.addAuditEvents({
      count: 3,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const name = spool(await apiEvents());
    const saved = readFileSync(join(dir, name));
    const first = await sync();
    expect(first.push?.objects).toEqual([name]);
    // As if the run had died between its state and the removal.
    writeFileSync(join(dir, name), saved);
    const second = await sync();
    expect(second.status).toBe('up-to-date');
    expect(spoolNames()).toEqual([]);
  });
});

describe('a spool object that is not one a receiver wrote stops the sync, named', () => {
  it('refuses an object whose events lie outside the span its name gives', async () => {
    server().admin.addAuditEvents({
      count: 2,
      scope: 'project',
      from: iso(T0 - 2 * HOUR),
      to: iso(T0 - HOUR),
    });
    const name = spool(await apiEvents());
    const [head, ...rest] = lines(name);
    const moved = { ...JSON.parse(head as string), occurredAt: iso(T0 - 10 * HOUR) };
    writeFileSync(join(dir, name), `${[JSON.stringify(moved), ...rest].join('\n')}\n`);
    await expect(sync()).rejects.toThrow(new RegExp(`${name} is not a push spool object`));
  });
});
