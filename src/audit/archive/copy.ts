import { createHash } from 'node:crypto';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveObject, ArchiveStore } from '../store/archive-store.js';
import { openArchiveStore } from '../store/open-store.js';
import type { ArchiveStoreOptions } from '../store/s3-settings.js';
import { LOCK_FILE, TAKEOVER_FILE } from '../sync/lock.js';
import { manifestRun, SYNC_STATE_FILE } from './fields.js';
import { checkAborted, hashObject, isPlainName } from './files.js';

/** Options of {@link copyAuditArchive}: the settings of whichever side is a bucket, and a stop. */
export interface CopyArchiveOptions extends ArchiveStoreOptions {
  /**
   * Stops the copy (an upload in flight is aborted, leaving nothing of it): rejects with an
   * `AbortError`; what was copied stays, and the same copy again goes on from there.
   */
  signal?: AbortSignal;
  /** Called after each object was copied and read back equal. Default: none. */
  onObject?: (object: CopiedObject) => void;
}

/** One object of a copied archive. */
export interface CopiedObject {
  name: string;
  bytes: number;
  /** sha256 (hex) of its bytes, the same in the source and the destination. */
  sha256: string;
}

/** What {@link copyAuditArchive} did. */
export interface CopyArchiveResult {
  /** The objects written to the destination, each read back and compared. */
  copied: CopiedObject[];
  /** The objects the destination held already, byte for byte (left by an interrupted copy). */
  present: CopiedObject[];
  /**
   * Source entries that cannot be an archive's (sub-folders, symbolic links, FIFOs, names such as
   * `..`): not copied.
   */
  skipped: string[];
  /** The newest manifest and its sha256: the head `verify --head` checks, the same on both sides. */
  head: { manifest: string; sha256: string } | null;
}

const SAME_LOCATION = /\/+$/;

/**
 * Copies a sync archive from `source` to `destination` (each a folder or `s3://bucket/prefix`),
 * object for object: every data file, manifest and the sync state, byte for byte, each read back
 * from the destination and compared (sha256) with what was read from the source. Both archives
 * are locked for the copy (no sync changes either meanwhile). The destination must be empty, or
 * hold only objects equal to the source's (what an interrupted copy left: the copy then goes on
 * with the rest); anything else there is refused before a byte is written. Data files go first,
 * then the manifests oldest first, the state last, so an interrupted copy never has a manifest
 * without its file. Housekeeping (the lock, a killed run's temporary files or unfinished uploads)
 * is not copied.
 */
export async function copyAuditArchive(
  source: string,
  destination: string,
  options: CopyArchiveOptions = {},
): Promise<CopyArchiveResult> {
  if (source.replace(SAME_LOCATION, '') === destination.replace(SAME_LOCATION, ''))
    throw new SvcError(`${source}: the source and the destination of a copy are the same archive`, 'config');
  const from = await openArchiveStore(source, options);
  const to = await openArchiveStore(destination, options);
  // Before the lock, which would create a missing folder: a typo in SRC is one clear line.
  await from.list({ mustExist: true });
  const releaseSource = await from.lock();
  try {
    const releaseDestination = await to.lock();
    try {
      await to.cleanUp();
      return await copyObjects(from, to, options);
    } finally {
      await releaseDestination();
    }
  } catch (error) {
    // Whatever stopped (a read, an upload, the loop), the news is the same: nothing half-written
    // stays, and the same copy again goes on.
    if (options.signal?.aborted)
      throw new AbortError(
        `the copy was interrupted: what was copied stays in ${destination}; the same copy again goes on from there`,
        { cause: error },
      );
    throw error;
  } finally {
    await releaseSource();
  }
}

/** The objects of a store that are the archive's: no lock, no killed run's leftovers. */
async function archiveObjects(store: ArchiveStore): Promise<ArchiveObject[]> {
  const housekeeping = new Set([LOCK_FILE, TAKEOVER_FILE, ...(await store.leftovers())]);
  // A folder archive keeps its run's transient work in a sub-folder of its own: not the archive.
  return (await store.list()).filter(
    (object) => !housekeeping.has(object.name) && store.describe(object.name) !== store.workDir,
  );
}

/** Data files first, manifests by run, the state last: what a sync writes first comes first. */
function copyOrder(name: string): [number, number, string] {
  if (name === SYNC_STATE_FILE) return [2, 0, name];
  const run = manifestRun(name);
  return run === undefined ? [0, 0, name] : [1, run, name];
}

function byCopyOrder(a: string, b: string): number {
  const [ga, ra, na] = copyOrder(a);
  const [gb, rb, nb] = copyOrder(b);
  return ga - gb || ra - rb || (na < nb ? -1 : na > nb ? 1 : 0);
}

async function copyObjects(
  from: ArchiveStore,
  to: ArchiveStore,
  options: CopyArchiveOptions,
): Promise<CopyArchiveResult> {
  const { signal } = options;
  const listed = await archiveObjects(from);
  // Only a regular object with a plain name can be an archive's (a bucket may hold `p/..` or `p/sub/x`).
  const copyable = (object: ArchiveObject) => object.bytes !== null && isPlainName(object.name);
  const objects = listed.filter(copyable);
  if (!objects.some((object) => object.name === SYNC_STATE_FILE || manifestRun(object.name) !== undefined))
    throw new SvcError(`${from.location} holds no sync archive (no manifest, no sync-state.json)`, 'config');
  const sourceByName = new Map(objects.map((object) => [object.name, object]));
  const present = await alreadyCopied(from, to, sourceByName, signal);
  const presentNames = new Set(present.map((object) => object.name));
  const copied: CopiedObject[] = [];
  for (const name of [...sourceByName.keys()].sort(byCopyOrder)) {
    if (presentNames.has(name)) continue;
    checkAborted(signal);
    const object = await copyOne(from, to, name, signal);
    copied.push(object);
    options.onObject?.(object);
  }
  const all = [...present, ...copied];
  const newest = all
    .filter((object) => manifestRun(object.name) !== undefined)
    .sort((a, b) => (manifestRun(b.name) ?? 0) - (manifestRun(a.name) ?? 0))[0];
  return {
    copied,
    present,
    skipped: listed.filter((object) => !copyable(object)).map((object) => object.name),
    head: newest ? { manifest: newest.name, sha256: newest.sha256 } : null,
  };
}

/**
 * The destination's objects, each equal to the source's object of that name; refuses a
 * destination holding anything else (another archive, a changed or partial object, a folder).
 */
async function alreadyCopied(
  from: ArchiveStore,
  to: ArchiveStore,
  sourceByName: Map<string, ArchiveObject>,
  signal: AbortSignal | undefined,
): Promise<CopiedObject[]> {
  const refuse = (name: string, why: string) =>
    new SvcError(
      `${to.location} is not empty: ${to.describe(name)} ${why}; copy into an empty archive (or one an interrupted copy of this source left)`,
      'config',
    );
  const present: CopiedObject[] = [];
  for (const object of await archiveObjects(to)) {
    checkAborted(signal);
    const source = sourceByName.get(object.name);
    if (!source || object.bytes === null) throw refuse(object.name, `is not in ${from.location}`);
    if (source.bytes !== object.bytes)
      throw refuse(object.name, `differs from ${from.describe(object.name)}`);
    const [there, here] = await Promise.all([
      hashObject(to, object.name, signal),
      hashObject(from, object.name, signal),
    ]);
    if (there.sha256 !== here.sha256) throw refuse(object.name, `differs from ${from.describe(object.name)}`);
    present.push({ name: object.name, ...here });
  }
  return present;
}

/** Streams one object across (memory bounded), hashing it on the way, then reads it back to compare. */
async function copyOne(
  from: ArchiveStore,
  to: ArchiveStore,
  name: string,
  signal: AbortSignal | undefined,
): Promise<CopiedObject> {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = await from.readStream(name);
  async function* hashed(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of stream) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    } finally {
      stream.destroy();
    }
  }
  const outcome = await to.upload(name, hashed(), signal ? { signal } : {});
  stream.destroy();
  if (outcome === 'exists')
    throw new SvcError(
      `${to.describe(name)} appeared in the destination during the copy; nothing replaced`,
      'io',
    );
  const sha256 = hash.digest('hex');
  const back = await hashObject(to, name, signal);
  if (back.sha256 !== sha256 || back.bytes !== bytes)
    throw new SvcError(
      `${to.describe(name)}: read back ${back.bytes} bytes sha256:${back.sha256}, but ${from.describe(name)} gave ${bytes} bytes sha256:${sha256}`,
      'io',
    );
  return { name, bytes, sha256 };
}
