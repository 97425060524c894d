import type { KeyObject } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { AbortError } from '../core/errors/abort-error.js';
import { SvcError } from '../core/errors/svc-error.js';
import type { RequestOptions } from '../core/http.js';
import type { ExportOptions, ExportProgress, ExportResult } from './export.js';
import {
  dataFileName,
  loadPrivateKey,
  type Manifest,
  type ManifestFile,
  manifestName,
  serializeManifest,
} from './manifest.js';
import type { AuditEventPage, ListEventsParams } from './schemas.js';
import { hashFile, removeStaleTemporaries, sha256, TMP_SUFFIX, writeFileAtomic } from './sync-files.js';
import { acquireSyncLock } from './sync-lock.js';
import {
  type ArchiveHole,
  emptySyncState,
  type PendingRun,
  readSyncState,
  type SyncState,
  writeSyncState,
} from './sync-state.js';

/** Default `lagMs`: events of the last 5 minutes wait for the next run. */
export const DEFAULT_SYNC_LAG_MS = 5 * 60_000;
/** Default `overlapMs`: each run re-reads 10 minutes before the previous run's end. */
export const DEFAULT_SYNC_OVERLAP_MS = 10 * 60_000;
/** Default `lateCheckRuns`: how many earlier runs are re-counted for late events. */
export const DEFAULT_LATE_CHECK_RUNS = 100;
/** `from` of a first run without `since`: everything the API still returns (it applies the retention). */
export const SYNC_EPOCH = '1970-01-01T00:00:00.000Z';

/** Options of `client.audit.sync`. */
export interface SyncOptions {
  /** The archive directory (created when missing): data files, manifests, `sync-state.json`, `sync.lock`. */
  dir: string;
  /**
   * Start of the first run (inclusive); ignored once the directory holds a run. Default: everything
   * the API still returns (its retention decides).
   */
  since?: string | Date;
  /** A run ends this long before the server's now, so events still being recorded wait. Default 300000 (5 min). */
  lagMs?: number;
  /**
   * Each run re-reads this long before the previous run's end, catching events recorded late with an
   * older `occurredAt`; ids archived already are skipped. Default 600000 (10 min).
   */
  overlapMs?: number;
  /** Writes the run's file gzip-compressed (`.ndjson.gz`). Default false. */
  gzip?: boolean;
  /** Ed25519 private key (PEM text or key object): each manifest is signed. Default: unsigned. */
  signKey?: string | KeyObject;
  /** Events per request, 1 to 1000. Default 1000. */
  pageSize?: number;
  /** Earlier runs re-counted at the API for events that arrived after the overlap. Default 100. */
  lateCheckRuns?: number;
  /** Stops after the current page; rejects with `AbortError`, a rerun resumes the same run. */
  signal?: AbortSignal;
  /** Called after every page of the run's export. */
  onProgress?: (progress: ExportProgress) => void;
}

/** What a sync run did. */
export interface SyncResult {
  /** `synced`: a run was written; `up-to-date`: nothing new yet (no file, no manifest). */
  status: 'synced' | 'up-to-date';
  run: number | null;
  /** Range covered by the run (`up-to-date`: where the next run starts, and `to` null), and the server's now it was computed from. */
  from: string;
  to: string | null;
  serverNow: string;
  /** File names of the run, relative to `dir`. */
  file: string | null;
  manifest: string | null;
  /** Events written by this run. */
  events: number;
  /** Events of the range that earlier runs had archived already. */
  alreadyArchived: number;
  totalElements: number | null;
  countMatches: boolean;
  /** true when this run continued one that was interrupted. */
  resumed: boolean;
  retentionGap: ArchiveHole | null;
  lateEvents: ArchiveHole[];
}

/** The audit API calls a sync uses. */
export interface SyncApi {
  listEvents(params: ListEventsParams, options?: RequestOptions): Promise<AuditEventPage>;
  exportEvents(options: ExportOptions): Promise<ExportResult>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const WORK_DIR = '.sync-work';

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new SvcError(`${name} must be a whole number >= 0`, 'config');
  return n;
}

async function countAt(api: SyncApi, from: string, to: string, signal?: AbortSignal): Promise<number> {
  const page = await api.listEvents({ from, to, pageSize: 1 }, { signal });
  return page.totalElements;
}

/**
 * Retention check: when the API no longer returns the newest event the archive holds, the plan's
 * retention has passed it, so events after the watermark may have expired before any run read them.
 * The hole reported runs from the watermark to the oldest event the API still returns after it.
 */
async function findRetentionGap(
  api: SyncApi,
  state: SyncState,
  to: string,
  signal?: AbortSignal,
): Promise<ArchiveHole | null> {
  const { newest, watermark } = state;
  if (!newest || !watermark) return null;
  if ((await countAt(api, newest.occurredAt, newest.occurredAt, signal)) > 0) return null;
  const total = await countAt(api, watermark, to, signal);
  let oldest = to;
  if (total > 0) {
    const page = await api.listEvents({ from: watermark, to, pageSize: 1, page: total - 1 }, { signal });
    oldest = page.content[0]?.occurredAt ?? to;
  }
  return { from: watermark, to: oldest, apiCount: null, archivedCount: null };
}

/** Whether `occ` lies in the range of run `index` (the first run includes its start). */
const inRange = (range: { from: string; to: string }, index: number, occ: number) =>
  occ <= Date.parse(range.to) &&
  (occ > Date.parse(range.from) || (index === 0 && occ >= Date.parse(range.from)));

/**
 * Late check: the part of each earlier run's range before this run's query (outside the overlap)
 * is counted at the API; more events there than the archive holds means events were recorded
 * after the overlap had passed them. The archive's count of that part is the run's count minus
 * the archived ids kept for the overlap window, which hold every archived event from the query start on.
 */
async function findLateEvents(
  api: SyncApi,
  state: SyncState,
  queryFromMs: number,
  limit: number,
  signal?: AbortSignal,
): Promise<ArchiveHole[]> {
  const holes: ArchiveHole[] = [];
  const eligible = state.ranges
    .map((range, index) => ({ range, index }))
    .filter(({ range }) => Date.parse(range.from) < queryFromMs)
    .slice(-limit);
  for (const { range, index } of eligible) {
    const fromMs = index === 0 ? Date.parse(range.from) : Date.parse(range.from) + 1;
    const toMs = Math.min(Date.parse(range.to), queryFromMs - 1);
    if (fromMs > toMs) continue;
    const inOverlap = state.recent.filter((e) => {
      const occ = Date.parse(e.occurredAt);
      return occ >= queryFromMs && inRange(range, index, occ);
    }).length;
    const archivedCount = range.events - inOverlap;
    const apiCount = await countAt(api, iso(fromMs), iso(toMs), signal);
    if (apiCount > archivedCount) holes.push({ from: iso(fromMs), to: iso(toMs), apiCount, archivedCount });
  }
  return holes;
}

/** Decides the next run from the server's now; undefined when nothing new is due. */
async function planRun(
  api: SyncApi,
  state: SyncState,
  options: SyncOptions,
): Promise<{ plan?: PendingRun; serverNow: string; from: string }> {
  const lag = nonNegative(options.lagMs, DEFAULT_SYNC_LAG_MS, 'lagMs');
  const overlap = nonNegative(options.overlapMs, DEFAULT_SYNC_OVERLAP_MS, 'overlapMs');
  const lateLimit = nonNegative(options.lateCheckRuns, DEFAULT_LATE_CHECK_RUNS, 'lateCheckRuns');
  const probe = await api.listEvents({ pageSize: 1 }, { signal: options.signal });
  const serverNow = probe.to;
  const toMs = Date.parse(serverNow) - lag;
  const since = options.since instanceof Date ? options.since.toISOString() : options.since;
  if (since !== undefined && Number.isNaN(Date.parse(since))) {
    throw new SvcError(`since is not a timestamp: ${since}`, 'config');
  }
  const from = state.watermark ?? (since === undefined ? SYNC_EPOCH : iso(Date.parse(since)));
  const fromMs = Date.parse(from);
  if (toMs <= fromMs) return { serverNow, from };
  // Never before the window whose ids the state knows (a longer overlap takes effect from the next run).
  const known = state.recentFrom === null ? Date.parse(SYNC_EPOCH) : Date.parse(state.recentFrom);
  const queryFromMs = state.watermark ? Math.min(fromMs, Math.max(known, fromMs - overlap)) : fromMs;
  const to = iso(toMs);
  const retentionGap = await findRetentionGap(api, state, to, options.signal);
  const lateEvents = await findLateEvents(api, state, queryFromMs, lateLimit, options.signal);
  const plan: PendingRun = {
    run: state.runs + 1,
    from,
    to,
    queryFrom: iso(queryFromMs),
    serverNow,
    gzip: Boolean(options.gzip),
    retentionGap,
    lateEvents,
  };
  return { plan, serverNow, from };
}

interface Written {
  file: ManifestFile;
  alreadyArchived: number;
}

/**
 * Copies the export's lines to the run's file, leaving out ids the archive holds already, and
 * hands each written event to `onEvent`. The output depends only on the export and the state, so
 * a rerun writes the same bytes.
 */
async function writeRunFile(
  dir: string,
  partPath: string,
  plan: PendingRun,
  known: ReadonlySet<string>,
  onEvent: (id: string, occurredAt: string) => void,
): Promise<Written> {
  const name = dataFileName(plan.run, plan.gzip);
  const path = join(dir, name);
  const tmp = `${path}${TMP_SUFFIX}`;
  let count = 0;
  let alreadyArchived = 0;
  let first: string | null = null;
  let last: string | null = null;
  async function* lines() {
    const reader = createInterface({
      input: createReadStream(partPath),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of reader) {
      if (line === '') continue;
      const event = JSON.parse(line) as { id?: unknown; occurredAt?: unknown };
      const id = typeof event.id === 'string' ? event.id : undefined;
      const occurredAt = typeof event.occurredAt === 'string' ? event.occurredAt : null;
      if (id !== undefined && known.has(id)) {
        alreadyArchived += 1;
        continue;
      }
      count += 1;
      first ??= occurredAt;
      last = occurredAt;
      if (id !== undefined && occurredAt !== null) onEvent(id, occurredAt);
      yield `${line}\n`;
    }
  }
  const out = createWriteStream(tmp, { flags: 'wx' });
  if (plan.gzip) await pipeline(lines, createGzip(), out);
  else await pipeline(lines, out);
  const handle = await open(tmp, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  const { sha256: digest, bytes } = await hashFile(path);
  return {
    file: { name, bytes, sha256: digest, events: count, firstOccurredAt: first, lastOccurredAt: last },
    alreadyArchived,
  };
}

/** Builds the state after a run from the events it writes: ids of the new overlap window, counts per range. */
class RunTally {
  private readonly ranges: SyncState['ranges'];
  private readonly current: SyncState['ranges'][number];
  private readonly fromMs: number;
  private readonly keepFromMs: number;
  private readonly fresh: SyncState['recent'] = [];
  private newest: SyncState['newest'];

  constructor(
    private readonly state: SyncState,
    private readonly plan: PendingRun,
    overlapMs: number,
  ) {
    this.ranges = state.ranges.map((range) => ({ ...range }));
    for (const hole of plan.lateEvents) {
      // Reported once, in this run's manifest: the missing events are taken as known from now on.
      const occ = Date.parse(hole.to);
      const range = this.ranges.find((r, i) => inRange(r, i, occ));
      if (range) range.events += (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    }
    this.current = { from: plan.from, to: plan.to, events: 0 };
    this.fromMs = Date.parse(plan.from);
    this.keepFromMs = Date.parse(plan.to) - overlapMs;
    this.newest = state.newest;
  }

  add(id: string, occurredAt: string): void {
    const occ = Date.parse(occurredAt);
    if (occ >= this.keepFromMs) this.fresh.push({ id, occurredAt });
    if (!this.newest || occ > Date.parse(this.newest.occurredAt)) this.newest = { id, occurredAt };
    if (occ > this.fromMs || (this.state.runs === 0 && occ >= this.fromMs)) {
      this.current.events += 1;
      return;
    }
    // A late event inside the overlap: it counts for the earlier run whose range holds it.
    const owner = this.ranges.findLast(
      (r, i) =>
        occ <= Date.parse(r.to) && (occ > Date.parse(r.from) || (i === 0 && occ >= Date.parse(r.from))),
    );
    if (owner) owner.events += 1;
  }

  finish(manifest: { name: string; sha256: string }): SyncState {
    const recent = [
      ...this.fresh,
      ...this.state.recent.filter((e) => Date.parse(e.occurredAt) >= this.keepFromMs),
    ];
    return {
      ...this.state,
      runs: this.plan.run,
      watermark: this.plan.to,
      lastManifest: manifest,
      recent,
      // Ids older than the previous window were forgotten: the known window cannot grow backwards.
      recentFrom: iso(
        Math.max(
          this.keepFromMs,
          this.state.recentFrom === null ? -Infinity : Date.parse(this.state.recentFrom),
        ),
      ),
      newest: this.newest,
      ranges: [...this.ranges, this.current],
      pending: null,
    };
  }
}

/**
 * One sync run into `options.dir`, under its lock: plan the run from the server's now (or take
 * over the pending one), export the query range through `exportEvents` (resumable), write the
 * run's file without ids archived already, write the manifest last, then move the state on.
 * Every step after the plan is deterministic, so a run killed anywhere and rerun leaves the same
 * bytes as one that was never interrupted.
 */
export async function runSync(api: SyncApi, options: SyncOptions): Promise<SyncResult> {
  const { dir, signal } = options;
  const overlapMs = nonNegative(options.overlapMs, DEFAULT_SYNC_OVERLAP_MS, 'overlapMs');
  const key = options.signKey === undefined ? undefined : loadPrivateKey(options.signKey);
  if (signal?.aborted) throw new AbortError('The sync was interrupted before it started');
  await mkdir(dir, { recursive: true });
  const release = await acquireSyncLock(dir);
  try {
    await removeStaleTemporaries(dir);
    const state = (await readSyncState(dir)) ?? emptySyncState();
    const resumed = state.pending !== null;
    let plan = state.pending;
    let serverNow = plan?.serverNow ?? '';
    if (!plan) {
      const planned = await planRun(api, state, options);
      serverNow = planned.serverNow;
      if (!planned.plan) {
        return {
          status: 'up-to-date',
          run: null,
          from: planned.from,
          to: null,
          serverNow,
          file: null,
          manifest: null,
          events: 0,
          alreadyArchived: 0,
          totalElements: null,
          countMatches: true,
          resumed: false,
          retentionGap: null,
          lateEvents: [],
        };
      }
      plan = planned.plan;
      await writeSyncState(dir, { ...state, pending: plan });
    }
    const work = join(dir, WORK_DIR);
    await mkdir(work, { recursive: true });
    const base = join(work, `run-${String(plan.run).padStart(6, '0')}`);
    const partPath = `${base}.ndjson`;
    const exported = await api.exportEvents({
      from: plan.queryFrom,
      to: plan.to,
      output: partPath,
      statePath: `${base}.state.json`,
      ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
      ...(signal && { signal }),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
    const tally = new RunTally(state, plan, overlapMs);
    const known = new Set(state.recent.map((event) => event.id));
    const written = await writeRunFile(dir, partPath, plan, known, (id, at) => tally.add(id, at));
    const totalElements = exported.totalElements;
    const countMatches = totalElements === written.file.events + written.alreadyArchived;
    const body: Omit<Manifest, 'signature'> = {
      version: 1,
      run: plan.run,
      range: { from: plan.from, to: plan.to },
      query: { from: plan.queryFrom, to: plan.to },
      serverNow: plan.serverNow,
      files: [written.file],
      totalElements,
      alreadyArchived: written.alreadyArchived,
      countMatches,
      retentionGap: plan.retentionGap,
      lateEvents: plan.lateEvents,
      previous: state.lastManifest,
    };
    const text = serializeManifest(body, key);
    const name = manifestName(plan.run);
    await writeFileAtomic(join(dir, name), text);
    await writeSyncState(dir, tally.finish({ name, sha256: sha256(text) }));
    await rm(work, { recursive: true, force: true });
    return {
      status: 'synced',
      run: plan.run,
      from: plan.from,
      to: plan.to,
      serverNow,
      file: written.file.name,
      manifest: name,
      events: written.file.events,
      alreadyArchived: written.alreadyArchived,
      totalElements,
      countMatches,
      resumed,
      retentionGap: plan.retentionGap,
      lateEvents: plan.lateEvents,
    };
  } finally {
    await release();
  }
}
