import type { KeyObject } from 'node:crypto';
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PendingRun } from '../audit-archive/state.js';
import type { KnownEvents } from '../audit-archive/window.js';
import type { ExportResult } from '../audit-export/export.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { conflictsName, dataFileName, workFileNames } from '../audit-store/layout.js';
import { ensurePrivateDir } from '../fs/private-dir.js';
import type { SyncApi, SyncOptions } from './options.js';
import type { PushReconciler } from './push-reconcile.js';
import { RunWriter, type Written } from './run-file.js';
import type { RunTally } from './tally.js';
import { replaceableOf } from './unlisted.js';

// A run's export in its work folder, and the run's objects made from it. The folder must be this
// user's alone (node/private-dir.ts): its parts are archive data before they are archived, and a
// folder another user made or can write into lets that user read them or swap them for forged
// events that then go into the archive under the user's signed manifest.

/** What a run works with. */
export interface RunContext {
  api: SyncApi;
  store: ArchiveStore;
  options: SyncOptions;
  key: KeyObject | undefined;
}

/** Whether a regular file (not a link) lies at `path`. */
const isFile = (path: string) =>
  lstat(path).then(
    (info) => info.isFile(),
    () => false,
  );

/**
 * Exports the run's query range into its part file in the checked work folder (resumed when a
 * state file names the part; a part no state names is removed first, so the export creates it
 * exclusively, 0600) and writes the run's objects from the events the export hands over as it
 * goes: the part is read back only for what a resumed export held before.
 */
export async function exportRun(
  ctx: RunContext,
  plan: PendingRun,
  known: KnownEvents,
  tally: RunTally | undefined,
  resumed: boolean,
  pushed?: PushReconciler,
): Promise<{ exported: ExportResult; written: Written }> {
  const { api, store, options } = ctx;
  const { signal } = options;
  const work = store.workDir;
  // The export's parts are archive data before they are archived: a folder of this user's alone,
  // refused when another user made it or can write into it (they could read or swap the parts).
  if (store.workRoot !== undefined) await ensurePrivateDir(store.workRoot);
  await ensurePrivateDir(work);
  const names = workFileNames(plan.run);
  const partPath = join(work, names.part);
  const statePath = join(work, names.state);
  const conflictsPart = join(work, names.conflicts);
  // A part no state file names is a leftover of a run killed before its first checkpoint, in
  // the user's own folder: removed, so the export creates its part exclusively (never writing
  // into a file that was there). A part a state names is resumed by the export itself.
  if (!(await isFile(statePath))) await rm(partPath, { force: true });
  await rm(conflictsPart, { force: true });
  const target = {
    store,
    // The objects of an interrupted run are its own (no manifest names them yet); --force: foreign
    // ones. Either way only objects no manifest lists: those are never replaced.
    replaceable:
      resumed || options.force
        ? await replaceableOf(store, [dataFileName(plan.run, plan.gzip), conflictsName(plan.run)])
        : new Set<string>(),
    partPath,
    conflictsPart,
    ...(signal && { signal }),
  };
  const writer = new RunWriter(target, plan, known, (event, keys) => tally?.add(event, keys), pushed);
  let exported: ExportResult;
  try {
    exported = await api.exportEvents({
      from: plan.queryFrom,
      to: plan.to,
      output: partPath,
      statePath,
      sink: writer,
      ...(options.pageSize !== undefined && { pageSize: options.pageSize }),
      ...(signal && { signal }),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
  } catch (error) {
    await writer.abandon(error);
    throw error;
  }
  return { exported, written: await writer.finish(exported.events) };
}
