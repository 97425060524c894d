import { rm } from 'node:fs/promises';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { sha256 } from '../audit-archive/files.js';
import { MAX_MANIFEST_BYTES } from '../audit-archive/gaps.js';
import {
  loadPrivateKey,
  type Manifest,
  parseManifest,
  serializeManifest,
} from '../audit-archive/manifest.js';
import {
  type PendingRun,
  readSyncState,
  type SyncState,
  stateWindow,
  writeSyncState,
} from '../audit-archive/state.js';
import { type KnownEvents, MAX_WINDOW_MS } from '../audit-archive/window.js';
import type { ExportResult } from '../audit-export/export.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { conflictsName, dataFileName, manifestName } from '../audit-store/layout.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { refuseOverwrite } from '../fs/output-file.js';
import { planBackfill } from './backfill.js';
import { checkedSyncState } from './checked-state.js';
import {
  DEFAULT_SYNC_OVERLAP_MS,
  nonNegative,
  type SyncApi,
  type SyncOptions,
  type SyncResult,
} from './options.js';
import { planRun } from './plan.js';
import { PushReconciler, retireLeftovers } from './push-reconcile.js';
import { headOf, syncResult } from './result.js';
import { pulledConflicts, type Written } from './run-file.js';
import { RunTally } from './tally.js';
import { exportRun, type RunContext } from './work-folder.js';

/** Refuses to start a new run over files the state does not name (another tool's, or a lost state's). */
async function refuseForeign(store: ArchiveStore, plan: PendingRun, signal?: AbortSignal): Promise<void> {
  const names = new Set((await store.list({ ...(signal && { signal }) })).map((object) => object.name));
  for (const name of [dataFileName(plan.run, plan.gzip), manifestName(plan.run), conflictsName(plan.run)]) {
    if (names.has(name)) throw refuseOverwrite(store.describe(name));
  }
}

/**
 * The run's manifest, chained to the state's head: its files, the API's count and whether what
 * the API sent, in range or not, adds up to it.
 */
function buildManifest(
  state: SyncState,
  plan: PendingRun,
  exported: ExportResult,
  written: Written,
): { body: Omit<Manifest, 'signature'>; countMatches: boolean } {
  const totalElements = exported.totalElements;
  const conflicts = pulledConflicts(written);
  const countMatches =
    totalElements === written.file.events + written.alreadyArchived + conflicts + written.outOfRange;
  const repairs = plan.repairs ?? [];
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
    ...(plan.repairs && { kind: 'backfill' as const, repairs: countMatches ? repairs : [] }),
    ...(state.acks.length > 0 && { acknowledged: state.acks }),
    ...(written.outOfRange > 0 && { outOfRange: written.outOfRange }),
    ...(written.conflicts && { conflicts: written.conflicts }),
    ...(written.push && { push: written.push }),
    previous: state.lastManifest,
  };
  return { body, countMatches };
}

/** Moves the state on to the run's manifest (the tally's window, or the pending run cleared), then drops the work folder. */
async function advanceState(
  store: ArchiveStore,
  state: SyncState,
  plan: PendingRun,
  tally: RunTally | undefined,
  head: { name: string; sha256: string },
): Promise<void> {
  const next: SyncState = tally
    ? tally.finish(head)
    : { ...state, runs: plan.run, lastManifest: head, pending: null };
  await writeSyncState(store, { ...next, acks: [] });
  await rm(store.workDir, { recursive: true, force: true });
}

/**
 * Carries out a planned run (regular or backfill): exports its query range (resumable), writes
 * the run's file (and conflicts file), the manifest last, then the state `next` computes.
 */
async function carryOut(
  ctx: RunContext,
  state: SyncState,
  plan: PendingRun,
  known: KnownEvents,
  tally: RunTally | undefined,
  resumed: boolean,
): Promise<SyncResult> {
  // A backfill run fetches an old gap again: the spool is the next regular run's to reconcile.
  const pushed = plan.repairs
    ? undefined
    : await PushReconciler.open(
        ctx.store,
        plan,
        known,
        state.ranges[0]?.from ?? plan.from,
        ctx.options.signal,
      );
  const { exported, written } = await exportRun(ctx, plan, known, tally, resumed, pushed);
  const { body, countMatches } = buildManifest(state, plan, exported, written);
  const text = serializeManifest(body, ctx.key);
  const name = manifestName(plan.run);
  await writeManifest(ctx.store, name, text);
  const head = { name, sha256: sha256(text) };
  await advanceState(ctx.store, state, plan, tally, head);
  await pushed?.retire();
  return syncResult({ manifest: name, sha256: head.sha256 }, plan, {
    plan,
    written,
    manifest: name,
    totalElements: exported.totalElements,
    countMatches,
    resumed,
    acknowledged: state.acks.map((ack) => ack.gap),
  });
}

/**
 * Writes a run's manifest once, `force` or not: of two runs racing for one number, the second
 * finds it there and stops without a manifest of its own. The same bytes already there count as
 * written (a retry whose first answer was lost).
 */
async function writeManifest(store: ArchiveStore, name: string, text: string): Promise<void> {
  if ((await store.create(name, text)) === 'created') return;
  const there = await store.read(name, Buffer.byteLength(text)).catch(() => undefined);
  if (there?.toString('utf8') === text) return;
  throw new SvcError(
    `${store.describe(name)} was written by another sync meanwhile (two syncs at once?); this run wrote no manifest, run the sync again to continue from it`,
    'locked',
  );
}

/** The spool objects the head manifest names as read; none when it names none (or there is no head). */
async function headPushObjects(store: ArchiveStore, state: SyncState): Promise<readonly string[]> {
  const head = state.lastManifest;
  if (!head) return [];
  const parsed = parseManifest((await store.read(head.name, MAX_MANIFEST_BYTES)).toString('utf8'));
  return parsed.ok ? (parsed.manifest.push?.objects ?? []) : [];
}

/** Backfill: one run per open gap the API still holds; gaps it no longer holds are noted as expired. */
async function backfill(ctx: RunContext, start: SyncState): Promise<SyncResult> {
  let state = start;
  const repaired: string[] = [];
  const expired: string[] = [];
  let last: SyncResult | undefined;
  for (;;) {
    const next = await planBackfill(ctx.api, ctx.store, state, ctx.options);
    if (next.expired) {
      expired.push(next.expired);
      state = { ...state, expired: [...state.expired, next.expired] };
      await writeSyncState(ctx.store, state);
      continue;
    }
    if (!next.plan) break;
    if (!ctx.options.force) await refuseForeign(ctx.store, next.plan, ctx.options.signal);
    await writeSyncState(ctx.store, { ...state, pending: next.plan });
    last = await carryOut(ctx, state, next.plan, next.known, undefined, false);
    repaired.push(...last.repaired);
    state = (await readSyncState(ctx.store)) ?? state;
    // A gap the run could not repair (the API's count moved) is not tried again in this call.
    if (last.repaired.length === 0) break;
  }
  const result = last ?? syncResult(headOf(state), { from: state.watermark ?? '', serverNow: '' });
  return { ...result, status: 'backfilled', repaired, expired };
}

/**
 * One sync run into `options.dir`, under its lock: plan the run from the server's now (or take
 * over the pending one), export the query range through `exportEvents` (resumable), write the
 * run's file without ids archived already, write the manifest last, then move the state on.
 * Every step after the plan is deterministic, so a run killed anywhere and rerun leaves the same
 * bytes as one that was never interrupted. With `backfill`, the recorded gaps are fetched instead.
 */
export async function runSync(api: SyncApi, options: SyncOptions): Promise<SyncResult> {
  const { dir, signal } = options;
  const overlapMs = nonNegative(options.overlapMs, DEFAULT_SYNC_OVERLAP_MS, 'overlapMs');
  if (overlapMs > MAX_WINDOW_MS) throw new SvcError('overlapMs must be at most 49 days', 'config');
  const key = options.signKey === undefined ? undefined : loadPrivateKey(options.signKey);
  if (signal?.aborted) throw new AbortError('The sync was interrupted before it started');
  const store = await openArchiveStore(dir, {
    ...(options.fileMode !== undefined && { fileMode: options.fileMode }),
    ...(options.workDir !== undefined && { workDir: options.workDir }),
    ...(options.s3 && { s3: options.s3 }),
  });
  const release = await store.lock();
  try {
    await store.cleanUp({ ...(signal && { signal }) });
    // A state object lost (deleted, or a bucket copied without it), or one that does not match the
    // manifests, is rebuilt from them: a pending run is taken over only when it is the next one.
    const state = await checkedSyncState(store, overlapMs, options.onWarning, signal);
    // Spool objects the last run read and was killed before it removed.
    await retireLeftovers(store, await headPushObjects(store, state));
    const ctx: RunContext = { api, store, options, key };
    const pending = state.pending;
    if (options.backfill && pending && !pending.repairs)
      throw new SvcError(
        `${dir} holds an interrupted run: finish it with a sync without backfill first, then backfill`,
        'config',
      );
    if (pending?.repairs) {
      // An interrupted backfill run is finished first, with the archive it was planned against.
      const { known } = await planBackfill(api, store, state, options, pending);
      const result = await carryOut(ctx, state, pending, known, undefined, true);
      if (!options.backfill) return result;
    }
    if (options.backfill) return await backfill(ctx, (await readSyncState(store)) ?? state);
    let plan = pending;
    let serverNow = plan?.serverNow ?? '';
    if (!plan) {
      const planned = await planRun(api, state, options);
      serverNow = planned.serverNow;
      if (!planned.plan) return syncResult(headOf(state), { from: planned.from, serverNow });
      plan = planned.plan;
      if (!options.force) await refuseForeign(store, plan, signal);
      await writeSyncState(store, { ...state, pending: plan });
    }
    const known = stateWindow(state);
    const tally = new RunTally(state, plan, overlapMs, known);
    const result = await carryOut(ctx, state, plan, known, tally, pending !== null);
    return { ...result, serverNow };
  } finally {
    await release();
  }
}
