import { createHash } from 'node:crypto';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestRun, SYNC_STATE_FILE } from '../audit-store/layout.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';
import {
  type CopiedObject,
  type CopyPlan,
  type LeftOutObject,
  planCopy,
  recheckDestination,
} from './copy-plan.js';
import { checkAborted, hashObject } from './files.js';

export type { CopiedObject, LeftOutObject } from './copy-plan.js';

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

/** What {@link copyAuditArchive} did. */
export interface CopyArchiveResult {
  /** The objects written to the destination, each read back and compared. */
  copied: CopiedObject[];
  /** The objects the destination held already, byte for byte (left by an interrupted copy). */
  present: CopiedObject[];
  /**
   * Every source name not copied, sorted: names that are not an archive's (`sign.pem`, `.env`,
   * `.bashrc`, `CON`, `*.svc-tmp`, a key with `\` or a control character, a sub-folder) and the
   * archive's objects in {@link incomplete}. The lock and a killed run's leftovers are not listed.
   */
  skipped: string[];
  /**
   * The archive's own objects (names of its layout) that were not copied, and why (not a regular
   * file, gone from the source): the destination does not hold the whole archive. Empty when it
   * does (`svc audit copy` then exits 0, else 5).
   */
  incomplete: LeftOutObject[];
  /** The newest manifest and its sha256: the head `verify --head` checks, the same on both sides. */
  head: { manifest: string; sha256: string } | null;
}

const SAME_LOCATION = /\/+$/;

/**
 * Copies a sync archive from `source` to `destination` (each a folder or `s3://bucket/prefix`),
 * object for object: exactly the objects whose names are the archive's layout (data files,
 * conflicts files, manifests, the sync state; `isArchiveObjectName`), byte for byte, each read
 * back from the destination and compared (sha256) with what was read from the source; every other
 * name is left and listed in `skipped`. Both archives are locked for the copy (no sync changes
 * either meanwhile). The destination must be empty, or hold only objects equal to the source's
 * (what an interrupted copy left: the copy then goes on with the rest); anything else there is
 * refused before anything in it changes (no lock taken, no temporary file removed, no upload
 * aborted). Data files go first, then the manifests oldest first, the state last, so an
 * interrupted copy never has a manifest without its file.
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
    // Read only: a destination refused here is left exactly as it was.
    const plan = await planCopy(from, to, options.signal);
    const releaseDestination = await to.lock();
    try {
      await recheckDestination(from, to, plan);
      await to.cleanUp();
      return await copyObjects(from, to, plan, options);
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
  plan: CopyPlan,
  options: CopyArchiveOptions,
): Promise<CopyArchiveResult> {
  const { signal } = options;
  const presentNames = new Set(plan.present.map((object) => object.name));
  const copied: CopiedObject[] = [];
  const incomplete = [...plan.leftOut];
  for (const name of [...plan.objects.keys()].sort(byCopyOrder)) {
    if (presentNames.has(name)) continue;
    checkAborted(signal);
    try {
      const object = await copyOne(from, to, name, signal);
      copied.push(object);
      options.onObject?.(object);
    } catch (error) {
      // The source refused this one object (gone, replaced by a link or a FIFO): named, the rest goes on.
      if (!(error instanceof ArchiveFileError) || signal?.aborted) throw error;
      incomplete.push({ name, reason: error.message });
    }
  }
  const newest = [...plan.present, ...copied]
    .filter((object) => manifestRun(object.name) !== undefined)
    .sort((a, b) => (manifestRun(b.name) ?? 0) - (manifestRun(a.name) ?? 0))[0];
  return {
    copied,
    present: plan.present,
    skipped: [...plan.foreign, ...incomplete.map((object) => object.name)].sort(),
    incomplete,
    head: newest ? { manifest: newest.name, sha256: newest.sha256 } : null,
  };
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
