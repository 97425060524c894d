import { lstat, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OutputPathError, SvcError } from '../../core/errors/error-classes.js';
import { fileFault } from '../../core/file-faults.js';
import { createAtomicFile } from '../fs/atomic-file.js';
import { makeDirs } from '../fs/make-dirs.js';
import { DEFAULT_FILE_MODE, directoryModeFor } from '../fs/output-file.js';
import type {
  ArchiveObject,
  ArchiveStore,
  CreateOutcome,
  ReadStreamOptions,
  ReleaseLock,
  UploadOptions,
} from './archive-store.js';
import { removeStaleTemporaries, writeFileAtomic } from './atomic-writes.js';
import { acquireSyncLock } from './folder-lock.js';
import { FOLDER_WORK_DIR, isPlainName, SYNC_STATE_FILE, TMP_SUFFIX } from './layout.js';
import { ArchiveFileError, openRegular, readRegular } from './regular-files.js';

/** Options of {@link FolderStore}. */
export interface FolderStoreOptions {
  /** Mode of the data files and manifests. Default 0o600. The state is always 0600. */
  fileMode?: number;
}

/** The sync state's name: the one object whose mode is 0600 whatever `fileMode` says (it names the head). */
const PRIVATE_NAMES = new Set([SYNC_STATE_FILE]);

/**
 * An archive in a local folder, as every version before buckets wrote it: each object a regular
 * file directly inside the folder, written atomically (a temporary `*.svc-tmp` renamed over its
 * name, fsynced), read only when it is a regular file (never through a symlink, never blocking on
 * a FIFO). Writes happen under the folder's lock (`sync.lock`), so "create once" is a look then a
 * write: no other run can come between.
 */
export class FolderStore implements ArchiveStore {
  readonly workDir: string;
  private readonly fileMode: number;

  constructor(
    readonly location: string,
    options: FolderStoreOptions = {},
  ) {
    this.fileMode = options.fileMode ?? DEFAULT_FILE_MODE;
    this.workDir = join(location, FOLDER_WORK_DIR);
  }

  describe(name: string): string {
    return join(this.location, name);
  }

  private path(name: string): string {
    if (!isPlainName(name)) throw new ArchiveFileError('not a file name inside the archive');
    return join(this.location, name);
  }

  private modeOf(name: string): number {
    return PRIVATE_NAMES.has(name) ? 0o600 : this.fileMode;
  }

  async list(options: { mustExist?: boolean } = {}): Promise<ArchiveObject[]> {
    let entries: Awaited<ReturnType<typeof readdirTyped>>;
    try {
      entries = await readdirTyped(this.location);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !options.mustExist) return [];
      if (code === 'ENOENT') throw new SvcError(`${this.location}: no such archive folder`, 'config');
      if (code === 'ENOTDIR') throw new SvcError(`${this.location} is not a directory`, 'config');
      throw error;
    }
    const objects: ArchiveObject[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) {
        objects.push({ name: entry.name, bytes: null });
        continue;
      }
      const info = await lstat(join(this.location, entry.name)).catch(() => undefined);
      objects.push({ name: entry.name, bytes: info?.isFile() ? info.size : null });
    }
    return objects;
  }

  read(name: string, maxBytes: number): Promise<Buffer> {
    return readRegular(this.location, name, maxBytes);
  }

  async readStream(name: string, options: ReadStreamOptions = {}): Promise<Readable> {
    const handle = await openRegular(this.location, name);
    const { maxBytes } = options;
    if (maxBytes === undefined) return handle.createReadStream();
    if (maxBytes < 1) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream({ start: 0, end: maxBytes - 1 });
  }

  private async exists(name: string): Promise<boolean> {
    return lstat(this.path(name)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
  }

  async create(name: string, data: string | Uint8Array): Promise<CreateOutcome> {
    if (await this.exists(name)) return 'exists';
    await writeFileAtomic(this.path(name), data, this.modeOf(name));
    return 'created';
  }

  async replace(name: string, data: string | Uint8Array): Promise<void> {
    await writeFileAtomic(this.path(name), data, this.modeOf(name));
  }

  async upload(
    name: string,
    body: AsyncIterable<Uint8Array>,
    options: UploadOptions = {},
  ): Promise<CreateOutcome> {
    const path = this.path(name);
    if (!options.replace && (await this.exists(name))) return 'exists';
    const file = await createAtomicFile(path, { mode: this.modeOf(name), tmp: `${path}${TMP_SUFFIX}` });
    try {
      await pipeline(body, file.writable(), ...(options.signal ? [{ signal: options.signal }] : []));
      await file.commit();
    } catch (error) {
      await file.discard();
      throw error;
    }
    return 'created';
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  async prepare(): Promise<void> {
    const dir = this.location;
    const there = await stat(dir).catch(() => undefined);
    if (there && !there.isDirectory()) throw new OutputPathError(`${dir} is not a directory`);
    // A folder the sync creates is as private as the files it will hold (0700 by default).
    // Not Node's recursive mkdir, which never returns under /proc (node/make-dirs.ts).
    await makeDirs(dir, directoryModeFor(this.fileMode)).catch((error: NodeJS.ErrnoException) => {
      const at = error.path && error.path !== dir ? ` at ${error.path}` : '';
      throw new SvcError(
        `archive folder ${dir} cannot be created: ${fileFault(error)}${at}; choose a folder you can write`,
        'io',
        { cause: error },
      );
    });
  }

  async lock(): Promise<ReleaseLock> {
    await this.prepare();
    return acquireSyncLock(this.location);
  }

  cleanUp(): Promise<void> {
    return removeStaleTemporaries(this.location);
  }

  async leftovers(): Promise<string[]> {
    const names = await readdir(this.location).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith(TMP_SUFFIX));
  }
}

const readdirTyped = (dir: string) => readdir(dir, { withFileTypes: true });
