// `verifyAuditArchive`: an archive checked from its manifests alone (what it reports: verify-result.ts).
import { setImmediate } from 'node:timers/promises';
import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveObject, ArchiveStore } from '../audit-store/archive-store.js';
import { isOverRunCap, MAX_RUN, manifestName, manifestRun } from '../audit-store/layout.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';
import { ChainWalk, type WalkMode } from './chain-walk.js';
import { checkAborted } from './files.js';
import { loadPublicKey } from './manifest.js';
import { readSyncState } from './state.js';
import type { VerifyArchiveOptions, VerifyArchiveResult } from './verify-result.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Verifies a `sync` archive from its manifests alone: re-hashes every file they list (only
 * regular files inside the archive are opened: no symlinks, FIFOs or devices), recounts their
 * lines, walks the chain (each manifest names the sha256 of the one before), checks that
 * consecutive runs' ranges meet, that each run's count matched the API, that every gap recorded
 * was repaired or acknowledged later in the chain, with a public key every signature, and with
 * `head`/`maxAgeMs` where the chain ends. The unsigned sync state is never trusted: it only adds
 * problems (a head it names that the chain lacks).
 */
export async function verifyAuditArchive(
  dir: string,
  options: VerifyArchiveOptions & ArchiveStoreOptions = {},
): Promise<VerifyArchiveResult> {
  return verifyArchive(await openArchiveStore(dir, options), options);
}

/**
 * {@link verifyAuditArchive} of an archive's store. `mode`: what the walk does besides the chain
 * (default: every listed file re-hashed and recounted; a search reads its files itself).
 */
export async function verifyArchive(
  store: ArchiveStore,
  options: VerifyArchiveOptions = {},
  mode?: WalkMode,
): Promise<VerifyArchiveResult> {
  const key = options.publicKey === undefined ? undefined : loadPublicKey(options.publicKey);
  const anchor = options.head
    ?.trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (anchor !== undefined && !SHA256_HEX.test(anchor))
    throw new SvcError('head must be the sha256 of a manifest: 64 hex digits', 'config');
  const entries = await store.list({ mustExist: true, ...(options.signal && { signal: options.signal }) });
  const walk = new ChainWalk(store, options, key, mode);
  const byRun = manifestsByRun(entries, walk);
  // The manifests that exist, in run order: a run of missing ones between two is one problem.
  const runs = [...byRun.keys()].sort((a, b) => a - b);
  let expected = 1;
  for (const run of runs) {
    // Answer SIGINT/SIGTERM between manifests, whatever the store's reads do.
    await setImmediate();
    checkAborted(options.signal);
    if (run > expected) walk.missing(expected, run - 1);
    await walk.step(run, byRun.get(run) as string);
    expected = run + 1;
  }
  return walk.end(runs.at(-1) ?? 0, await readSyncState(store).catch(() => undefined), anchor);
}

/**
 * The archive's manifests by run number; a name that is not one of the chain's is reported on
 * the walk: run 0, a second name of one run (`manifest-0000001.json` beside `manifest-000001.json`)
 * and a run number past {@link MAX_RUN}.
 */
function manifestsByRun(entries: ArchiveObject[], walk: ChainWalk): Map<number, string> {
  const byRun = new Map<number, string>();
  // Names as sync writes them first, then by name: which of two names of one run is reported does
  // not depend on the store's listing order.
  const canonical = (name: string) => {
    const run = manifestRun(name);
    return run !== undefined && manifestName(run) === name ? 0 : 1;
  };
  const ordered = [...entries].sort(
    (a, b) => canonical(a.name) - canonical(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  for (const entry of ordered) {
    const run = manifestRun(entry.name);
    const taken = run === undefined ? undefined : byRun.get(run);
    if (run === 0) walk.report('bad-manifest', entry.name, 'run number 0: runs start at 1');
    else if (taken !== undefined)
      walk.report('bad-manifest', entry.name, `names run ${run}, as ${taken} does: one is not sync's`);
    else if (run !== undefined) byRun.set(run, entry.name);
    else if (isOverRunCap(entry.name))
      walk.report(
        'bad-manifest',
        entry.name,
        `run number past ${MAX_RUN}, the most a manifest name may hold`,
      );
  }
  return byRun;
}
