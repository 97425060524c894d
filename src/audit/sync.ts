import { access, chmod, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AbortError } from '../core/errors/abort-error.js';
import { OutputPathError } from '../core/errors/output-path-error.js';
import { refuseOverwrite } from '../core/output-file.js';
import { dataFileName, loadPrivateKey, type Manifest, manifestName, serializeManifest } from './manifest.js';
import { removeStaleTemporaries, sha256, writeFileAtomic } from './sync-files.js';
import { acquireSyncLock } from './sync-lock.js';
import {
  DEFAULT_SYNC_OVERLAP_MS,
  nonNegative,
  type SyncApi,
  type SyncOptions,
  type SyncResult,
} from './sync-options.js';
import { planRun } from './sync-plan.js';
import { RunTally, writeRunFile } from './sync-run-file.js';
import { emptySyncState, readSyncState, writeSyncState } from './sync-state.js';

/** Where a run keeps its export and the export's state until the run is finished. */
const WORK_DIR = '.sync-work';
/** Mode of the work folder: owner only. */
const WORK_DIR_MODE = 0o700;

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
  const { fileMode } = options;
  const there = await stat(dir).catch(() => undefined);
  if (there && !there.isDirectory()) throw new OutputPathError(`${dir} is not a directory`);
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
      if (!options.force) {
        // A new run's files must not exist yet: anything there is not this archive's own.
        for (const name of [dataFileName(plan.run, plan.gzip), manifestName(plan.run)]) {
          const path = join(dir, name);
          if (
            await access(path).then(
              () => true,
              () => false,
            )
          )
            throw refuseOverwrite(path);
        }
      }
      await writeSyncState(dir, { ...state, pending: plan });
    }
    const work = join(dir, WORK_DIR);
    // The export's parts are archive data before they are archived: owner only, like the files.
    await mkdir(work, { recursive: true, mode: WORK_DIR_MODE });
    await chmod(work, WORK_DIR_MODE);
    const base = join(work, `run-${String(plan.run).padStart(6, '0')}`);
    const partPath = `${base}.ndjson`;
    const exported = await api.exportEvents({
      from: plan.queryFrom,
      to: plan.to,
      output: partPath,
      statePath: `${base}.state.json`,
      // The work folder is the run's own, under the lock: what is there belongs to this run.
      force: true,
      ...(fileMode !== undefined && { fileMode }),
      ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
      ...(signal && { signal }),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
    const tally = new RunTally(state, plan, overlapMs);
    const known = new Set(state.recent.map((event) => event.id));
    const written = await writeRunFile(dir, partPath, plan, known, (id, at) => tally.add(id, at), fileMode);
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
    await writeFileAtomic(join(dir, name), text, fileMode);
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
