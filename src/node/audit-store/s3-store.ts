import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AbortError } from '../../core/errors/error-classes.js';
import { redact } from '../../core/redact.js';
import { userWorkRoot } from '../fs/private-dir.js';
import type {
  ArchiveObject,
  ArchiveStore,
  CreateOutcome,
  ObjectRetention,
  ReadStreamOptions,
  ReleaseLock,
  UploadOptions,
} from './archive-store.js';
import {
  bucketWorkDirName,
  isPlainName,
  LOCK_FILE,
  PUSH_SPOOL_NAME,
  SHIP_STATE_NAME,
  SYNC_STATE_FILE,
} from './layout.js';
import { ListingGuard } from './list-pages.js';
import { ArchiveFileError } from './regular-files.js';
import { isAbsent, isInvalidRange, isPreconditionFailed, type S3Route, s3Fault } from './s3-faults.js';
import { parseS3Location, type S3Location } from './s3-location.js';
import { everyInterval, holdS3Lock, type LockObjectIo } from './s3-lock.js';
import { listUnfinishedUploads, type UnfinishedUpload } from './s3-multipart.js';
import { probeS3Store } from './s3-probe.js';
import { bytesUpTo, firstBytes, wholeSize } from './s3-range.js';
import { type AskedRetention, getRetention } from './s3-retention.js';
import { DEFAULT_S3_LOCK_TTL_MS, type S3StoreSettings } from './s3-settings.js';

/** Part size of a run's multipart upload (S3's least): with {@link UPLOAD_QUEUE} parts in flight, about 20 MiB held at once. */
const PART_BYTES = 5 * 1024 * 1024;
/** Parts uploaded at once. */
const UPLOAD_QUEUE = 4;
/** Name of the lock object under the prefix (as the folder's lock file). */
const LOCK_NAME = LOCK_FILE;
/** Most a lock object may hold: its body is some 150 bytes. */
const LOCK_MAX_BYTES = 4096;
/**
 * Objects that get no retention: the lock (removed at the end of each run) and the state
 * (rewritten by each run; the manifests it is rebuilt from are kept).
 */
const HOUSEKEEPING = new Set([LOCK_NAME, SYNC_STATE_FILE]);

/** Whether an object gets no retention: housekeeping, a ship's checkpoint (replaced as it goes) or a push spool object (removed once reconciled). */
const retainless = (name: string): boolean =>
  HOUSEKEEPING.has(name) || SHIP_STATE_NAME.test(name) || PUSH_SPOOL_NAME.test(name);
const DAY_MS = 86_400_000;

/**
 * An archive in an S3-compatible bucket, under `s3://bucket/prefix/`: one object per file of the
 * folder layout. Run files and manifests are created with `If-None-Match: *` (a store that honours
 * it refuses a second writer with 412); the state is replaced whole (PUT is atomic on S3); a run's
 * data goes up as a multipart upload that becomes visible only when completed. Objects get no
 * ACL (the bucket's default) and, with `retainDays`, Object Lock retention.
 */
export class S3Store implements ArchiveStore {
  readonly location: string;
  readonly workDir: string;
  readonly workRoot: string;
  private readonly where: S3Location;
  private readonly now: () => number;
  private probed: Promise<void> | undefined;

  constructor(
    location: string,
    private readonly client: S3Client,
    private readonly settings: S3StoreSettings,
    workDir: string | undefined,
    /** The store's host and the proxy its requests go through, for error lines. */
    private readonly route?: S3Route,
  ) {
    this.where = parseS3Location(location);
    this.location = location;
    this.now = settings.now ?? Date.now;
    // A folder of this archive's own inside the work folder: removing it never touches the user's files.
    const id = createHash('sha256').update(this.location).digest('hex').slice(0, 16);
    // Under the user's own folder, never the shared temp folder: a name anyone can predict there
    // can be made first by another user, who then reads and swaps the run's export.
    this.workRoot = workDir ?? userWorkRoot();
    this.workDir = join(this.workRoot, bucketWorkDirName(id));
  }

  describe(name: string): string {
    return `s3://${this.where.bucket}/${this.key(name)}`;
  }

  private key(name: string): string {
    if (!isPlainName(name)) throw new ArchiveFileError('not a file name inside the archive');
    return this.where.prefix === '' ? name : `${this.where.prefix}/${name}`;
  }

  private get bucket(): string {
    return this.where.bucket;
  }

  private fault(error: unknown, name?: string): Error {
    return s3Fault(error, name === undefined ? this.location : this.describe(name), this.route);
  }

  /** The retention every write asks for, from now; undefined without `retainDays`. */
  private askedRetention(): AskedRetention | undefined {
    const days = this.settings.retainDays;
    if (days === undefined) return undefined;
    const mode = this.settings.retainMode === 'compliance' ? 'COMPLIANCE' : 'GOVERNANCE';
    return { mode, until: new Date(this.now() + days * DAY_MS), days };
  }

  /** Object Lock parameters of an object a run writes. */
  private lockParams(name: string): Partial<PutObjectCommandInput> {
    const asked = this.askedRetention();
    if (asked === undefined || retainless(name)) return {};
    return { ObjectLockMode: asked.mode, ObjectLockRetainUntilDate: asked.until };
  }

  async list(options: { signal?: AbortSignal } = {}): Promise<ArchiveObject[]> {
    const prefix = this.where.prefix === '' ? '' : `${this.where.prefix}/`;
    const objects: ArchiveObject[] = [];
    const guard = new ListingGuard(this.location, 'ListObjectsV2', options.signal);
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            Delimiter: '/',
            ...(token && { ContinuationToken: token }),
          }),
          { ...(options.signal && { abortSignal: options.signal }) },
        )
        .catch((error: unknown) => {
          if (options.signal?.aborted) throw new AbortError('The listing was interrupted');
          throw this.fault(error);
        });
      for (const item of page.Contents ?? []) {
        const name = (item.Key ?? '').slice(prefix.length);
        if (name !== '') objects.push({ name, bytes: item.Size ?? 0 });
      }
      for (const folder of page.CommonPrefixes ?? [])
        objects.push({ name: (folder.Prefix ?? '').slice(prefix.length, -1), bytes: null });
      token = guard.next(page.IsTruncated, page.NextContinuationToken, objects.length);
    } while (token);
    return objects;
  }

  /**
   * GetObject of an object's first `maxBytes` bytes (a `Range` GET; the whole object without
   * `maxBytes`); null for an empty object, which S3 answers a range with 416 InvalidRange.
   */
  private async get(name: string, maxBytes?: number) {
    const range = maxBytes === undefined ? {} : { Range: `bytes=0-${maxBytes - 1}` };
    try {
      return await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name), ...range }),
      );
    } catch (error) {
      if (isAbsent(error)) throw new ArchiveFileError('missing');
      if (maxBytes !== undefined && isInvalidRange(error)) return null;
      throw this.fault(error, name);
    }
  }

  async read(name: string, maxBytes: number): Promise<Buffer> {
    return (await this.readTagged(name, maxBytes)).bytes;
  }

  /**
   * {@link read} with the object's ETag (what a conditional replace names): a `Range` GET of
   * `maxBytes + 1` bytes, refused from its `Content-Range` (the object's whole size) before the
   * body is read; a store that ignores the range is cut off past `maxBytes`.
   */
  private async readTagged(
    name: string,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; etag: string | undefined }> {
    const answer = await this.get(name, maxBytes + 1);
    if (answer === null) return { bytes: Buffer.alloc(0), etag: undefined };
    const size = wholeSize(answer.ContentRange) ?? answer.ContentLength ?? 0;
    const bytes = await bytesUpTo(answer.Body as Readable | undefined, size, maxBytes);
    return { bytes, etag: answer.ETag };
  }

  async readStream(name: string, options: ReadStreamOptions = {}): Promise<Readable> {
    const { maxBytes } = options;
    if (maxBytes !== undefined && maxBytes < 1) return Readable.from([]);
    const answer = await this.get(name, maxBytes);
    const body = (answer?.Body as Readable | undefined) ?? Readable.from([]);
    return maxBytes === undefined ? body : firstBytes(body, maxBytes);
  }

  private async put(name: string, data: string | Uint8Array, condition: 'absent' | 'any' | string) {
    await this.probe();
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.key(name),
        Body: typeof data === 'string' ? Buffer.from(data) : data,
        ...(condition === 'absent' && { IfNoneMatch: '*' }),
        ...(condition !== 'absent' && condition !== 'any' && { IfMatch: condition }),
        ...this.lockParams(name),
      }),
    );
  }

  async create(name: string, data: string | Uint8Array): Promise<CreateOutcome> {
    try {
      await this.put(name, data, 'absent');
      return 'created';
    } catch (error) {
      if (isPreconditionFailed(error)) return 'exists';
      throw this.fault(error, name);
    }
  }

  async replace(name: string, data: string | Uint8Array): Promise<void> {
    await this.put(name, data, 'any').catch((error: unknown) => {
      throw this.fault(error, name);
    });
  }

  async upload(
    name: string,
    body: AsyncIterable<Uint8Array>,
    options: UploadOptions = {},
  ): Promise<CreateOutcome> {
    await this.probe();
    const upload = new Upload({
      client: this.client,
      queueSize: UPLOAD_QUEUE,
      partSize: PART_BYTES,
      params: {
        Bucket: this.bucket,
        Key: this.key(name),
        Body: Readable.from(body, { objectMode: false }),
        ...(!options.replace && { IfNoneMatch: '*' }),
        ...this.lockParams(name),
      },
    });
    const stop = () => void upload.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      await upload.done();
      return 'created';
    } catch (error) {
      // NoSuchUpload to a retried completion: the first one took effect; the caller compares the bytes.
      if (isPreconditionFailed(error) || (error as { name?: string }).name === 'NoSuchUpload')
        return 'exists';
      if (options.signal?.aborted) throw error;
      throw this.fault(error, name);
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  }

  async remove(name: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }))
      .catch((error: unknown) => {
        if (!isAbsent(error)) throw this.fault(error, name);
      });
  }

  /**
   * Once per store, before its first write (s3-probe.ts): with `retainDays`, a store that does not
   * keep the retention stops the run here; one that accepts a second write with `If-None-Match: *`
   * ignores the header, so neither the lock nor the write-once manifests stop a second run: one
   * warning says so (verify still catches a replaced manifest by its successor's link).
   */
  private probe(): Promise<void> {
    this.probed ??= (async () => {
      const found = await probeS3Store({
        client: this.client,
        bucket: this.bucket,
        key: (name) => this.key(name),
        location: this.location,
        retention: this.askedRetention(),
        fault: (error) => this.fault(error),
      });
      if (!found.honoursIfNoneMatch)
        this.settings.onWarning?.(
          `${this.settings.endpoint === undefined ? 'the S3 store' : redact(this.settings.endpoint)} (bucket ${this.bucket}) ignores If-None-Match: a second sync at the same time is not refused; svc audit verify finds a replaced manifest afterwards`,
        );
    })();
    return this.probed;
  }

  async prepare(): Promise<void> {}

  lock(): Promise<ReleaseLock> {
    return holdS3Lock(this.lockObject(), {
      ttlMs: this.settings.lockTtlMs ?? DEFAULT_S3_LOCK_TTL_MS,
      now: this.now,
      schedule: this.settings.schedule ?? everyInterval,
      ...(this.settings.onWarning && { onWarning: this.settings.onWarning }),
    });
  }

  /** The lock object, read and written as {@link holdS3Lock} needs it. */
  private lockObject(): LockObjectIo {
    return {
      location: this.location,
      where: this.describe(LOCK_NAME),
      create: (text) => this.create(LOCK_NAME, text),
      read: async () => {
        try {
          const { bytes, etag } = await this.readTagged(LOCK_NAME, LOCK_MAX_BYTES);
          return { text: bytes.toString('utf8'), etag };
        } catch (error) {
          if (!(error instanceof ArchiveFileError)) throw error;
          // Larger than a lock body: not one (an unknown holder, never taken over).
          return error.message === 'missing' ? 'missing' : { text: '', etag: undefined };
        }
      },
      replaceIf: (text, etag) =>
        this.put(LOCK_NAME, text, etag).catch((error: unknown) => {
          throw isPreconditionFailed(error) ? error : this.fault(error, LOCK_NAME);
        }),
      isPreconditionFailed,
      remove: () => this.remove(LOCK_NAME),
    };
  }

  private unfinished(signal: AbortSignal | undefined): Promise<UnfinishedUpload[]> {
    return listUnfinishedUploads(
      this.client,
      this.bucket,
      { prefix: this.where.prefix, location: this.location, signal },
      (error) => this.fault(error),
    );
  }

  async cleanUp(options: { signal?: AbortSignal } = {}): Promise<void> {
    for (const upload of await this.unfinished(options.signal)) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.key, UploadId: upload.id }))
        .catch((error: unknown) => {
          if (!isAbsent(error)) throw this.fault(error);
        });
    }
  }

  async leftovers(options: { signal?: AbortSignal } = {}): Promise<string[]> {
    const prefix = this.where.prefix === '' ? '' : `${this.where.prefix}/`;
    return (await this.unfinished(options.signal)).map(
      (upload) =>
        `${upload.key.slice(prefix.length)} (unfinished upload${upload.initiated ? ` started ${upload.initiated.toISOString()}` : ''})`,
    );
  }

  async retention(name: string): Promise<ObjectRetention | null> {
    try {
      return await getRetention(this.client, this.bucket, this.key(name));
    } catch (error) {
      if (isAbsent(error)) throw new ArchiveFileError('missing');
      throw this.fault(error, name);
    }
  }
}
