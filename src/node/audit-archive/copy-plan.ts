import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveObject, ArchiveStore } from '../audit-store/archive-store.js';
import {
  isArchiveObjectName,
  isPlainName,
  LOCK_FILE,
  manifestRun,
  SYNC_STATE_FILE,
  TAKEOVER_FILE,
} from '../audit-store/layout.js';
import { checkAborted, hashObject } from './files.js';

// What `svc audit copy` will do, found before it changes anything: which source objects are the
// archive's (by name, store/layout.ts), which are left and why, and whether the destination may be
// copied into. Nothing here writes: a destination that is refused stays as it was, its temporary
// files, unfinished uploads and all.

/** One object of a copied archive. */
export interface CopiedObject {
  name: string;
  bytes: number;
  /** sha256 (hex) of its bytes, the same in the source and the destination. */
  sha256: string;
}

/** An object of the archive (its name is the layout's) that was not copied, and why. */
export interface LeftOutObject {
  name: string;
  /** In a few words: `not a regular file`, `a symbolic link, not a regular file`, `missing`. */
  reason: string;
}

/** What a copy found before writing: what it copies, what it leaves, what the destination holds. */
export interface CopyPlan {
  /** The source's objects to copy (regular objects with an archive's name), by name. */
  objects: Map<string, ArchiveObject>;
  /** Source names that are not an archive's (`.env`, `sign.pem`, `CON`, `a\b`): left, named. */
  foreign: string[];
  /** Source entries with an archive's name that are not regular objects: left, named. */
  leftOut: LeftOutObject[];
  /** The destination's objects, each equal to the source's of that name (an interrupted copy's). */
  present: CopiedObject[];
}

/** A name for messages: the store's own form when it is a plain name, else the raw name quoted (escaped). */
export function whereIs(store: ArchiveStore, name: string): string {
  return isPlainName(name) ? store.describe(name) : `${store.location} ${JSON.stringify(name)}`;
}

/**
 * A store's objects without its housekeeping: the lock, a killed run's temporary files, a
 * folder's `.sync-work`. Never hands a name to the store (a bucket key may be `a\b`).
 */
async function withoutHousekeeping(store: ArchiveStore): Promise<ArchiveObject[]> {
  const housekeeping = new Set([LOCK_FILE, TAKEOVER_FILE, ...(await store.leftovers())]);
  return (await store.list()).filter(
    (object) =>
      !housekeeping.has(object.name) &&
      !(isPlainName(object.name) && store.describe(object.name) === store.workDir),
  );
}

/** Sorts the source's entries: the archive's regular objects, names not an archive's, the archive's that are not regular. */
async function sourceObjects(from: ArchiveStore): Promise<Omit<CopyPlan, 'present'>> {
  const objects = new Map<string, ArchiveObject>();
  const foreign: string[] = [];
  const leftOut: LeftOutObject[] = [];
  for (const object of await withoutHousekeeping(from)) {
    if (!isArchiveObjectName(object.name)) foreign.push(object.name);
    else if (object.bytes === null) leftOut.push({ name: object.name, reason: 'not a regular file' });
    else objects.set(object.name, object);
  }
  if (![...objects.keys()].some((name) => name === SYNC_STATE_FILE || manifestRun(name) !== undefined))
    throw new SvcError(`${from.location} holds no sync archive (no manifest, no sync-state.json)`, 'config');
  foreign.sort();
  return { objects, foreign, leftOut };
}

function refusal(to: ArchiveStore, name: string, why: string): SvcError {
  return new SvcError(
    `${to.location} is not empty: ${whereIs(to, name)} ${why}; copy into an empty archive (or one an interrupted copy of this source left)`,
    'config',
  );
}

/**
 * The destination's objects, each equal to the source's object of that name (same size, same
 * sha256); refuses a destination holding anything else (another archive, a changed or partial
 * object, a folder, a foreign name). Reads only.
 */
async function alreadyCopied(
  from: ArchiveStore,
  to: ArchiveStore,
  objects: Map<string, ArchiveObject>,
  signal: AbortSignal | undefined,
): Promise<CopiedObject[]> {
  const present: CopiedObject[] = [];
  for (const object of await withoutHousekeeping(to)) {
    checkAborted(signal);
    const source = objects.get(object.name);
    if (!source || object.bytes === null) throw refusal(to, object.name, `is not in ${from.location}`);
    const differs = `differs from ${from.describe(object.name)}`;
    if (source.bytes !== object.bytes) throw refusal(to, object.name, differs);
    const [there, here] = await Promise.all([
      hashObject(to, object.name, signal),
      hashObject(from, object.name, signal),
    ]);
    if (there.sha256 !== here.sha256) throw refusal(to, object.name, differs);
    present.push({ name: object.name, ...here });
  }
  return present;
}

/**
 * The plan of a copy from `from` (locked by the caller) to `to`, found by reading only: `to` is
 * neither locked, nor cleaned, nor written. Refuses (a `config` SvcError) a source that holds no
 * archive and a destination that holds anything but objects equal to the source's.
 */
export async function planCopy(
  from: ArchiveStore,
  to: ArchiveStore,
  signal: AbortSignal | undefined,
): Promise<CopyPlan> {
  const source = await sourceObjects(from);
  const present = await alreadyCopied(from, to, source.objects, signal);
  return { ...source, present };
}

/**
 * Once the destination is locked: it still holds what {@link planCopy} found there (by name and
 * size), so nothing written between the check and the lock is copied over or counted as copied.
 */
export async function recheckDestination(
  from: ArchiveStore,
  to: ArchiveStore,
  plan: CopyPlan,
): Promise<void> {
  const found = new Map(plan.present.map((object) => [object.name, object.bytes]));
  const seen = new Set<string>();
  for (const object of await withoutHousekeeping(to)) {
    const bytes = found.get(object.name);
    if (bytes === undefined)
      throw refusal(to, object.name, `appeared while the copy from ${from.location} began`);
    if (bytes !== object.bytes) throw refusal(to, object.name, 'changed while the copy began');
    seen.add(object.name);
  }
  const gone = [...found.keys()].find((name) => !seen.has(name));
  if (gone !== undefined)
    throw new SvcError(`${to.describe(gone)} was removed while the copy began; run the copy again`, 'io');
}
