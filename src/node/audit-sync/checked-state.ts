import { SvcError } from '../../core/errors/error-classes.js';
import { sha256 } from '../audit-archive/files.js';
import { MAX_MANIFEST_BYTES } from '../audit-archive/gaps.js';
import { parseManifest } from '../audit-archive/manifest.js';
import { emptySyncState, readSyncState, type SyncState, writeSyncState } from '../audit-archive/state.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestName, manifestRun, SYNC_STATE_FILE } from '../audit-store/layout.js';
import { rebuildSyncState } from './rebuild-state.js';

// The sync state is an unsigned object beside the archive, and the one its docs tell R2 users to
// leave out of the lock rules: the easiest to edit. So it is trusted only as far as the manifests
// bear it out. A state that points anywhere but at the archive's newest manifest, or whose
// pending run is not exactly the next one, is rebuilt from the manifests, never followed.

/** What one listing of the store says: the newest manifest's run (0: none) and every object's name. */
interface ArchiveHead {
  run: number;
  names: ReadonlySet<string>;
}

async function headOf(store: ArchiveStore, signal: AbortSignal | undefined): Promise<ArchiveHead> {
  const names = new Set((await store.list({ ...(signal && { signal }) })).map((object) => object.name));
  let run = 0;
  for (const name of names) run = Math.max(run, manifestRun(name) ?? 0);
  return { run, names };
}

/** Why the head the state names is not the archive's head; undefined when it is. */
async function headMismatch(
  store: ArchiveStore,
  state: SyncState,
  head: ArchiveHead,
): Promise<string | undefined> {
  if (state.runs !== head.run)
    return `it counts ${state.runs} runs, the newest manifest is of run ${head.run}`;
  const named = state.lastManifest;
  if (head.run === 0) return named ? `it names ${named.name}, the archive has no manifest` : undefined;
  const name = manifestName(head.run);
  if (named?.name !== name)
    return `it names ${named?.name ?? 'no manifest'} as the head, the newest is ${name}`;
  const bytes = await store.read(name, MAX_MANIFEST_BYTES).catch(() => undefined);
  if (!bytes) return `${name} cannot be read`;
  if (sha256(bytes) !== named.sha256) return `its sha256 of ${name} is not that manifest's`;
  const parsed = parseManifest(bytes.toString('utf8'));
  if (!parsed.ok) return `${name} is not a manifest sync writes`;
  // A regular run moves the watermark to its range's end; a backfill run leaves it where it was.
  if (parsed.manifest.kind !== 'backfill' && state.watermark !== parsed.manifest.range.to)
    return `its watermark is not where ${name} ends`;
  return undefined;
}

/** Why the state's pending run may not be taken over; undefined when it may (or there is none). */
function pendingMismatch(state: SyncState, head: ArchiveHead): string | undefined {
  const pending = state.pending;
  if (!pending) return undefined;
  if (pending.run !== head.run + 1)
    return `its pending run ${pending.run} is not the next run, ${head.run + 1}`;
  if (head.names.has(manifestName(pending.run)))
    return `its pending run ${pending.run} has a manifest already`;
  if (!pending.repairs && state.watermark !== null && pending.from !== state.watermark)
    return `its pending run ${pending.run} does not start where run ${head.run} ended`;
  return undefined;
}

/** The archive's state from its manifests; a chain that cannot be read whole stops the sync, nothing written. */
async function rebuilt(
  store: ArchiveStore,
  overlapMs: number,
  head: ArchiveHead,
  signal: AbortSignal | undefined,
): Promise<SyncState> {
  const state = await rebuildSyncState(store, overlapMs, signal);
  if (state) return state;
  if (head.run === 0) return emptySyncState();
  throw new SvcError(
    `${store.location}: the manifests cannot be read as one chain, so the sync state cannot be rebuilt from them; nothing was written (svc audit verify ${store.location} names what is wrong)`,
    'bad_state',
  );
}

/**
 * The sync state of an archive, as far as its manifests bear it out (call under the lock). A
 * missing state is rebuilt from the manifests. A state whose head is not the newest manifest (its
 * run count, name, sha256 or watermark), or whose pending run is not exactly the next one (the
 * head's run + 1) with no manifest yet, is rebuilt too, written back, and one line saying so goes
 * to `onWarning`: such a state is never followed, so no object a manifest lists is ever replaced
 * on its word. A pending run that passes is the interrupted run's own, and may be taken over.
 * `signal` stops the listing and the rebuild (an interrupt).
 */
export async function checkedSyncState(
  store: ArchiveStore,
  overlapMs: number,
  onWarning: ((line: string) => void) | undefined,
  signal?: AbortSignal,
): Promise<SyncState> {
  const head = await headOf(store, signal);
  const state = await readSyncState(store);
  if (!state) return rebuilt(store, overlapMs, head, signal);
  const reason = (await headMismatch(store, state, head)) ?? pendingMismatch(state, head);
  if (reason === undefined) return state;
  const fresh = await rebuilt(store, overlapMs, head, signal);
  onWarning?.(
    `${store.describe(SYNC_STATE_FILE)} did not match the archive (${reason}): rebuilt from the manifests, nothing replaced`,
  );
  await writeSyncState(store, fresh);
  return fresh;
}
