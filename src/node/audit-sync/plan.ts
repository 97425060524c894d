import { SvcError } from '../../core/errors/error-classes.js';
import { type ArchiveHole, type PendingRun, type SyncState, stateWindow } from '../audit-archive/state.js';
import type { EventWindow } from '../audit-archive/window.js';
import {
  DEFAULT_LATE_CHECK_RUNS,
  DEFAULT_SYNC_LAG_MS,
  DEFAULT_SYNC_OVERLAP_MS,
  iso,
  nonNegative,
  SYNC_EPOCH,
  type SyncApi,
  type SyncOptions,
} from './options.js';

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
export const inRange = (range: { from: string; to: string }, index: number, occ: number) =>
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
  window: EventWindow,
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
    let inOverlap = 0;
    for (const event of window.events())
      if (event.occ >= queryFromMs && inRange(range, index, event.occ)) inOverlap += 1;
    const archivedCount = range.events - inOverlap;
    const apiCount = await countAt(api, iso(fromMs), iso(toMs), signal);
    if (apiCount > archivedCount) holes.push({ from: iso(fromMs), to: iso(toMs), apiCount, archivedCount });
  }
  return holes;
}

/** Decides the next run from the server's now; undefined when nothing new is due. */
export async function planRun(
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
  const lateEvents = await findLateEvents(
    api,
    state,
    stateWindow(state),
    queryFromMs,
    lateLimit,
    options.signal,
  );
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
