import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';
import type { CopyArchiveOptions, CopyArchiveResult } from './copy.js';
import type { ArchiveGap } from './gaps.js';
import type { VerifyArchiveOptions, VerifyArchiveResult } from './verify-result.js';

// The public functions of a sync archive on disk (gaps, acknowledgements, verify, copy): each
// loads the archive code at its call, so importing `svc-sdk/node` reads none of it.

/** The archive's gap ledger and state, as one object. */
const archive = () =>
  Promise.all([import('./gaps.js'), import('./state.js')]).then(([gaps, state]) => ({ ...gaps, ...state }));
/** Where an archive lives: a folder, or a bucket (whose AWS SDK loads only for `s3://`). */
const loadArchiveStore = () => import('../audit-store/open-store.js');
/** The archive verifier (re-hashes files, checks signatures with node:crypto). */
const loadArchiveVerifier = () => import('./verify.js');
/** The archive copy between a folder and a bucket (streams, node:crypto). */
const loadArchiveCopy = () => import('./copy.js');

/**
 * Verifies an archive written by `syncAuditArchive`: re-hashes every file, recounts its events,
 * walks the manifest chain, checks that runs meet and that counts matched, and with
 * `options.publicKey` every Ed25519 signature. `ok` is true only when no problem was found; each
 * problem has a one-line message. The verifier loads on first use.
 *
 * @example
 * const { ok, problems } = await verifyAuditArchive('audit-archive', { publicKey: pem });
 * for (const problem of problems) console.log(problem.message);
 */
export async function verifyAuditArchive(
  dir: string,
  options: VerifyArchiveOptions & ArchiveStoreOptions = {},
): Promise<VerifyArchiveResult> {
  const verifier = await loadArchiveVerifier();
  return verifier.verifyAuditArchive(dir, options);
}

async function openStore(dir: string, options: ArchiveStoreOptions) {
  const { openArchiveStore } = await loadArchiveStore();
  return openArchiveStore(dir, options);
}

/** The gaps of a sync archive, and the acknowledgements waiting for the next manifest. */
export interface ArchiveGaps {
  /** Every gap the manifests recorded, oldest first, with its status. */
  gaps: ArchiveGap[];
  /** Gaps acknowledged with `acknowledgeGap`, recorded in the next run's manifest. */
  pendingAcks: Array<{ gap: string; reason: string; at: string }>;
  /**
   * What killed runs left that the next sync removes (a folder's temporary files, a bucket's
   * unfinished multipart uploads): housekeeping, not part of the archive.
   */
  leftovers: string[];
}

async function stateOf(store: Awaited<ReturnType<typeof openStore>>) {
  const { readSyncState } = await archive();
  const state = await readSyncState(store);
  if (!state) throw new SvcError(`${store.location} holds no sync archive (no sync-state.json)`, 'config');
  return state;
}

/**
 * Lists the gaps a sync archive recorded (range, cause, whether the API may still hold them, and
 * whether a later manifest repaired or acknowledged them), from its manifests; reads nothing
 * from the API. A manifest that cannot be read (edited, replaced, not a regular file) is an
 * `SvcError` with code `bad_archive` naming it, since the list would miss its gaps; a folder
 * without a sync state is a `config` error, a sync state that is not one a `bad_state` error.
 *
 * @example
 * const { gaps } = await listAuditGaps('audit-archive');
 * for (const gap of gaps) if (gap.status === 'open') console.log(gap.id, gap.from, gap.to);
 */
export async function listAuditGaps(
  dir: string,
  /** Where a bucket archive is; `signal` stops the listing and reading with an `AbortError`. */
  options: ArchiveStoreOptions & { signal?: AbortSignal } = {},
): Promise<ArchiveGaps> {
  const { readGaps } = await archive();
  const store = await openStore(dir, options);
  const state = await stateOf(store);
  const { ledger, unreadable } = await readGaps(store, new Set(state.expired), options.signal);
  const [first] = unreadable;
  if (first) {
    const more = unreadable.length > 1 ? ` (and ${unreadable.length - 1} more unreadable manifests)` : '';
    throw new SvcError(
      `${first.manifest}: ${first.reason}${more}; the gaps cannot be listed, svc audit verify ${dir} lists every problem`,
      'bad_archive',
    );
  }
  return {
    gaps: ledger.all(),
    pendingAcks: state.acks,
    leftovers: await store.leftovers({ ...(options.signal && { signal: options.signal }) }),
  };
}

/**
 * Acknowledges a gap that cannot be repaired (its events expired, or a conflict was checked by
 * hand): the acknowledgement, with `reason` and the time, goes into the next run's manifest
 * (signed with it), after which `verifyAuditArchive` no longer counts the gap as a problem.
 * Takes the archive's lock. A gap that does not exist, or is not open, is a `config` error.
 */
export async function acknowledgeAuditGap(
  dir: string,
  gap: string,
  reason: string,
  /** The clock of the acknowledgement's time. Default `Date.now`. */
  now: () => number = Date.now,
  /** Where a bucket archive is (endpoint, region). Default: the AWS SDK's settings. */
  options: ArchiveStoreOptions = {},
): Promise<ArchiveGap> {
  const why = reason.trim();
  if (why === '' || why.length > 1000 || /[\p{Cc}]/u.test(why))
    throw new SvcError('the reason must be 1 to 1000 characters on one line', 'config');
  const { readGaps, writeSyncState } = await archive();
  const store = await openStore(dir, options);
  const release = await store.lock();
  try {
    const state = await stateOf(store);
    const found = (await readGaps(store, new Set(state.expired))).ledger.get(gap);
    if (!found) throw new SvcError(`${dir} records no gap ${gap}; svc audit gaps lists them`, 'config');
    if (found.status !== 'open')
      throw new SvcError(`gap ${gap} is already ${found.status} (${found.resolvedBy})`, 'config');
    const acks = [
      ...state.acks.filter((ack) => ack.gap !== gap),
      { gap, reason: why, at: new Date(now()).toISOString() },
    ];
    await writeSyncState(store, { ...state, acks });
    return found;
  } finally {
    await release();
  }
}

/**
 * Copies a sync archive between a folder and a bucket (`s3://bucket/prefix`), or between two of
 * either, object for object: every data file, manifest and the sync state, each read back from
 * the destination and compared (sha256) with the source's bytes; `verifyAuditArchive` then gives
 * the same head for both. Both archives are locked meanwhile. The destination must be empty, or
 * hold only what an interrupted copy of the same source left (the copy goes on with the rest);
 * anything else is a `config` error before a byte is written. `options.s3` applies to whichever
 * side is a bucket.
 *
 * @example
 * const { copied, head } = await copyAuditArchive('audit-archive', 's3://audit-bucket/nightly');
 * console.log(`${copied.length} objects, head sha256:${head?.sha256}`);
 */
export async function copyAuditArchive(
  source: string,
  destination: string,
  options: CopyArchiveOptions = {},
): Promise<CopyArchiveResult> {
  const copier = await loadArchiveCopy();
  return copier.copyAuditArchive(source, destination, options);
}
