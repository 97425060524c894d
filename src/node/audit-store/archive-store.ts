import type { Readable } from 'node:stream';

// The one seam between the audit archive (sync, verify, gaps, backfill) and where its objects
// live: a folder (folder-store.ts) or an S3-compatible bucket (s3-store.ts). The archive code
// speaks only of object names (`manifest-000001.json`, `audit-000001.ndjson`, `sync-state.json`);
// how they are stored, locked and made write-once is the store's business. `svc audit copy` moves
// an archive between two stores through the same interface, object for object.

/** One object of the archive, as {@link ArchiveStore.list} sees it. */
export interface ArchiveObject {
  /** Its name inside the archive (no folder part): `manifest-000001.json`. */
  name: string;
  /** Its size in bytes; null when it is not a regular object (a folder's symlink, FIFO or sub-folder). */
  bytes: number | null;
}

/** What {@link ArchiveStore.create} and {@link ArchiveStore.upload} did. */
export type CreateOutcome =
  /** The object was written: it did not exist. */
  | 'created'
  /**
   * An object of that name was there already and was left untouched: a write-once store refused
   * to replace it (S3's 412 PreconditionFailed to `If-None-Match: *`, a folder's EEXIST).
   */
  | 'exists';

/** How {@link ArchiveStore.upload} writes. */
export interface UploadOptions {
  /**
   * Replace an object that exists (`sync --force` over foreign files) instead of answering
   * `exists`. Default false: create once.
   */
  replace?: boolean;
  /** Stops the upload (aborting a multipart upload); rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** How {@link ArchiveStore.readStream} reads. */
export interface ReadStreamOptions {
  /** Most bytes fetched; the stream ends after them. A positive whole number. Default: the whole object. */
  maxBytes?: number;
}

/** The sync lock of an archive, held while a run or an acknowledgement changes it. */
export type ReleaseLock = () => Promise<void>;

/**
 * Where an archive's objects live. Every name handed in is a plain object name (no `/`, `\`,
 * NUL, `.` or `..`): a store refuses any other with an `ArchiveFileError`. Reads fail with an
 * `ArchiveFileError` (from `regular-files.ts`) whose message is the reason in a few words
 * (`missing`, `larger than N bytes`, `a symbolic link, not a regular file`); other failures (no
 * access, no such bucket) are `SvcError`s with one line to show.
 */
export interface ArchiveStore {
  /** The archive as the user named it, for messages: a folder path or `s3://bucket/prefix`. */
  readonly location: string;
  /** The name of one object for messages: a path in the folder, or its `s3://` URL. */
  describe(name: string): string;
  /**
   * Every object of the archive (one level, no sub-folders' contents), in no set order. An
   * archive that does not exist yet is empty, unless `mustExist`, when it is a `config` SvcError
   * (`no such archive folder`, `no such bucket`). A bucket's listing is bounded (a repeated
   * continuation token, more than 100,000 pages or 500,000 objects: one `io` SvcError line, see
   * `store/list-pages.ts`); with `signal`, it stops with an `AbortError` once the signal fired.
   */
  list(options?: { mustExist?: boolean; signal?: AbortSignal }): Promise<ArchiveObject[]>;
  /**
   * The bytes of an object, refused (`ArchiveFileError` `larger than N bytes`) when larger than
   * `maxBytes`, from its size before its content is read (a folder's `fstat`, a bucket's
   * `Content-Range` of a `Range: bytes=0-<maxBytes>` GET): never more than `maxBytes + 1` fetched.
   */
  read(name: string, maxBytes: number): Promise<Buffer>;
  /**
   * The bytes of an object as a stream (memory bounded whatever its size); the caller destroys it
   * when done. With `maxBytes`, no more than that is fetched (a folder's bounded read, a bucket's
   * `Range: bytes=0-<maxBytes - 1>`) and the stream ends there: a file a manifest lists is read
   * with its listed size plus one, so a longer object is found without downloading the rest.
   */
  readStream(name: string, options?: ReadStreamOptions): Promise<Readable>;
  /** Writes a small object only when none of that name exists; never a part of it visible. */
  create(name: string, data: string | Uint8Array): Promise<CreateOutcome>;
  /** Writes a small object whole, replacing one that exists (the sync state); never a part visible. */
  replace(name: string, data: string | Uint8Array): Promise<void>;
  /**
   * Streams a large object (a run's data) from `body`, memory bounded whatever its size; nothing
   * of it is visible under `name` until the whole is written (a folder's temporary file renamed
   * at the end, a bucket's multipart upload completed at the end), so a run killed anywhere
   * leaves no part of it. Create-once unless `options.replace`.
   */
  upload(name: string, body: AsyncIterable<Uint8Array>, options?: UploadOptions): Promise<CreateOutcome>;
  /** Removes an object; one that is not there is let be. */
  remove(name: string): Promise<void>;
  /**
   * Makes the archive exist when it does not yet, for writers that take no lock (a push
   * receiver): a folder is created (0700 unless the store's file mode says otherwise); a bucket
   * must exist already, and nothing is done.
   */
  prepare(): Promise<void>;
  /**
   * Takes the archive's sync lock (creating the archive when it does not exist yet): of any
   * number of runs exactly one gets it; another gets a `locked` SvcError naming the holder.
   */
  lock(): Promise<ReleaseLock>;
  /**
   * Removes what killed runs left that is not part of the archive (a folder's temporary files, a
   * bucket's unfinished multipart uploads under the prefix). Call only while holding the lock.
   */
  cleanUp(options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * What {@link cleanUp} would remove, by name, for `audit gaps`' housekeeping line. With
   * `signal` (both), a bucket's listing stops with an `AbortError` once it fired.
   */
  leftovers(options?: { signal?: AbortSignal }): Promise<string[]>;
  /**
   * A local folder of this archive for the run's transient work (the export and its state), which
   * no one else needs: inside the folder archive, or for a bucket under {@link workRoot}. Its
   * content may be lost at any time; a run that finds none starts its export again. A run
   * refuses it unless it is a folder of this user's, mode 0700 (`node/private-dir.ts`).
   */
  readonly workDir: string;
  /**
   * The folder {@link workDir} lies in, which must be this user's own too (checked like it): a
   * bucket's `--work-dir` (option `workDir`), default the per-user cache folder (`~/.cache/svc`,
   * `%LOCALAPPDATA%\svc`). Absent for a folder archive, whose work folder lies inside it.
   */
  readonly workRoot?: string;
  /**
   * The Object Lock retention of an object (`verify --require-retention`); null when it has none.
   * Absent on stores that have no such thing (a folder): every object counts as having none.
   */
  retention?(name: string): Promise<ObjectRetention | null>;
}

/** An object's Object Lock retention. */
export interface ObjectRetention {
  mode: 'GOVERNANCE' | 'COMPLIANCE';
  /** Until when the object cannot be removed or replaced (ISO 8601). */
  until: string;
}
