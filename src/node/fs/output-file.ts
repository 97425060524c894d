import { constants } from 'node:fs';
import { type FileHandle, lstat, open, stat } from 'node:fs/promises';
import { CheckpointError, OutputPathError, SvcError } from '../../core/errors/error-classes.js';
import { fileFault } from '../../core/file-faults.js';

/**
 * Mode of the files a run creates (results, rejects, exports, archives, state): owner only, since
 * they may hold personal data. Every option `fileMode` defaults to it.
 */
export const DEFAULT_FILE_MODE = 0o600;

/**
 * Mode of a folder a run creates to hold files of `fileMode`: the same readers, with the search
 * bit for each who may read (0o600 gives 0o700, 0o640 gives 0o750). Never wider than the files.
 */
export function directoryModeFor(fileMode: number): number {
  return (fileMode & 0o777) | ((fileMode & 0o444) >> 2);
}

/**
 * What lies at an output path: nothing, an empty regular file, a regular file with data, or a
 * stream (a character device such as `/dev/stdout` or `/dev/null`, a FIFO, a socket), which is
 * written in order, never truncated, synced or resumed.
 */
export type OutputKind = 'missing' | 'empty' | 'file' | 'stream';

const { O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_APPEND } = constants;

function isStream(info: { isFile(): boolean; isDirectory(): boolean }): boolean {
  return !info.isFile() && !info.isDirectory();
}

/**
 * Looks at an output path without writing. A directory, or a symbolic link to a regular file, a
 * directory or nothing, is an {@link OutputPathError}; a symbolic link to a device or FIFO (such as
 * `/dev/stdout`) is a stream.
 */
export async function inspectOutput(path: string): Promise<OutputKind> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (info.isSymbolicLink()) {
    const target = await stat(path).catch(() => undefined);
    if (target && isStream(target)) return 'stream';
    if (target?.isDirectory()) throw new OutputPathError(`${path} is a directory, not a file`);
    throw new OutputPathError(
      `${path} is a symbolic link; refusing to write through it (give the path of the file itself)`,
    );
  }
  if (info.isDirectory()) throw new OutputPathError(`${path} is a directory, not a file`);
  if (isStream(info)) return 'stream';
  return info.size === 0 ? 'empty' : 'file';
}

/** Whether a path names a device, FIFO or socket (also through a symlink): written as a stream. */
export async function isStreamPath(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && isStream(info);
}

/** The one refusal to replace a file, named for the CLI's flag and the library's option. */
export function refuseOverwrite(path: string): OutputPathError {
  return new OutputPathError(
    `${path} already exists and is not this run's output; use --force (option force) to replace it`,
  );
}

/** How an output is to be opened. */
export interface OutputOpenOptions {
  /** Continue the file as it is (it must be a regular file). Default false. */
  resume?: boolean;
  /** Replace a regular file that holds data. Default false: such a file is refused. */
  force?: boolean;
  /** Mode of a file created by this call. Default {@link DEFAULT_FILE_MODE} (0600). */
  mode?: number;
}

/**
 * Checks an output before anything is written: see {@link inspectOutput}; a regular file with data
 * is refused unless `force` or `resume`; a stream cannot be resumed. Returns what is there.
 */
export async function preflightOutput(path: string, options: OutputOpenOptions = {}): Promise<OutputKind> {
  const kind = await inspectOutput(path);
  if (kind === 'file' && !options.force && !options.resume) throw refuseOverwrite(path);
  if (kind === 'stream' && options.resume)
    throw new OutputPathError(`cannot resume ${path}: it is not a regular file (a device or pipe)`);
  return kind;
}

/** A state file path must be a regular file or nothing: a directory or device is refused by name. */
export async function checkStatePath(path: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info?.isDirectory()) throw new OutputPathError(`state file ${path} is a directory, not a file`);
  if (info && !info.isFile())
    throw new OutputPathError(`state file ${path} is not a regular file (a device or pipe)`);
}

function openRefusal(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return inspectOutput(path).then(
      () => error,
      (refusal: unknown) => refusal,
    );
  if (code === 'EEXIST') return refuseOverwrite(path);
  if (code === 'EISDIR') return new OutputPathError(`${path} is a directory, not a file`);
  return error;
}

async function openChecked(path: string, flags: number, mode?: number): Promise<FileHandle> {
  try {
    return await open(path, flags, mode);
  } catch (error) {
    throw await openRefusal(path, error);
  }
}

/**
 * Opens an output for writing, never through a symbolic link to a file (`O_NOFOLLOW`): a new file
 * is created exclusively with `mode`; an existing regular file is emptied only when it is empty
 * already or `force` is set, and kept as is with `resume`; a stream is opened as it is (no
 * truncation). `seekable` is false for a stream.
 */
export async function openOutput(
  path: string,
  options: OutputOpenOptions = {},
): Promise<{ handle: FileHandle; seekable: boolean }> {
  const kind = await preflightOutput(path, options);
  const mode = options.mode ?? DEFAULT_FILE_MODE;
  if (kind === 'stream') {
    const handle = await openChecked(path, O_WRONLY);
    if ((await handle.stat()).isFile()) {
      await handle.close();
      throw new OutputPathError(`${path} changed while it was opened; try again`);
    }
    return { handle, seekable: false };
  }
  if (kind === 'missing' && !options.resume) {
    const handle = await openChecked(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    // The umask may have narrowed the mode; the caller's choice wins.
    await handle.chmod(mode);
    return { handle, seekable: true };
  }
  const handle = await openChecked(path, (options.resume ? O_RDWR : O_WRONLY) | O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new OutputPathError(`${path} changed while it was opened; try again`);
    if (!options.resume) {
      if (info.size > 0 && !options.force) throw refuseOverwrite(path);
      await handle.truncate(0);
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { handle, seekable: true };
}

/**
 * Opens an output to append to (a log of events): created exclusively with `mode` when missing,
 * never through a symbolic link to a file, a directory refused by name, a device written as is.
 */
export async function openAppendOutput(path: string, mode = DEFAULT_FILE_MODE): Promise<FileHandle> {
  const kind = await inspectOutput(path);
  if (kind === 'stream') return openChecked(path, O_WRONLY | O_APPEND);
  if (kind === 'missing') {
    const handle = await openChecked(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    await handle.chmod(mode);
    return handle;
  }
  return openChecked(path, O_WRONLY | O_APPEND | O_NOFOLLOW);
}

/** A failed write or sync as one line naming the file, e.g. `cannot write /dev/full: no space left on device (ENOSPC)`. Code `io`. */
export function writeFailure(path: string, error: unknown): SvcError {
  return new SvcError(`cannot write ${path}: ${fileFault(error)}`, 'io', { cause: error });
}

/** Chunks smaller than this are gathered in memory and written together. */
const GATHER_BYTES = 64 * 1024;

/**
 * An append-only output file. Appends are written in order (small ones gathered first);
 * {@link DurableOutput.sync} writes what is gathered and fsyncs, after which `size` bytes are on
 * disk. Nothing is synced on append: the caller decides when, through a {@link SyncSchedule}.
 */
export class DurableOutput {
  /**
   * The gathered appends, encoded into one buffer as they come (room for two gathers: it is
   * written once it holds {@link GATHER_BYTES}), and how many of its bytes they are.
   */
  private pending: Buffer | undefined;
  private pendingBytes = 0;
  private written: number;
  /** Writes finished so far, and how many of them the last fsync covered. */
  private writes = 0;
  private syncedWrites = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    start: number,
    /** False for a device or FIFO: written in order, never synced, truncated or resumed. */
    readonly seekable: boolean,
  ) {
    this.written = start;
  }

  /**
   * Opens an output (through {@link openOutput}: never through a symbolic link
   * to a file, created exclusively with `options.mode`, default 0600). Without `resumeAt` the file
   * is created, or emptied when it is empty already or `options.force` is set (a file with data
   * is an `OutputPathError` otherwise); with it, the file must exist and hold at least that many
   * bytes, and is cut back to exactly that many (dropping what a crash left after the last
   * checkpoint); those errors are {@link CheckpointError} `resume_failed`. A device or FIFO
   * (`/dev/stdout`) is a stream: written in order, never synced, truncated or resumed
   * (`seekable` false).
   */
  static async open(
    path: string,
    resumeAt?: number,
    options: { force?: boolean; mode?: number } = {},
  ): Promise<DurableOutput> {
    if (resumeAt === undefined) {
      const { handle, seekable } = await openOutput(path, { ...options, resume: false });
      return new DurableOutput(path, handle, 0, seekable);
    }
    let handle: FileHandle;
    try {
      ({ handle } = await openOutput(path, { resume: true }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new CheckpointError(
          `Cannot resume: the output ${path} is missing; delete the state file to start over`,
          'resume_failed',
        );
      }
      throw error;
    }
    const { size } = await handle.stat();
    if (size < resumeAt) {
      await handle.close();
      throw new CheckpointError(
        `Cannot resume: ${path} holds ${size} bytes but the state file records ${resumeAt}; delete the state file to start over`,
        'resume_failed',
      );
    }
    await handle.truncate(resumeAt);
    await handle.sync();
    return new DurableOutput(path, handle, resumeAt, true);
  }

  /** Bytes appended so far, durable or not. */
  get size(): number {
    return this.written + this.pendingBytes;
  }

  /** Appends a chunk; the caller may reuse a `Uint8Array` chunk once the promise settles. */
  async append(chunk: string | Uint8Array): Promise<void> {
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
    if (length < GATHER_BYTES) {
      // Encoded (or copied) straight into the gather: no buffer per append, no copy to join them.
      this.pending ??= Buffer.allocUnsafe(2 * GATHER_BYTES);
      if (typeof chunk === 'string') this.pending.write(chunk, this.pendingBytes, 'utf8');
      else this.pending.set(chunk, this.pendingBytes);
      this.pendingBytes += length;
      if (this.pendingBytes >= GATHER_BYTES) await this.flush();
      return;
    }
    await this.flush();
    await this.writeAll(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }

  /** Writes what is gathered (no fsync). */
  async flush(): Promise<void> {
    if (this.pendingBytes === 0 || !this.pending) return;
    const data = this.pending.subarray(0, this.pendingBytes);
    this.pending = undefined;
    this.pendingBytes = 0;
    await this.writeAll(data);
  }

  private async writeAll(data: Uint8Array): Promise<void> {
    let done = 0;
    try {
      while (done < data.length) {
        const at = this.seekable ? this.written + done : null;
        const { bytesWritten } = await this.handle.write(data, done, data.length - done, at);
        done += bytesWritten;
      }
    } catch (error) {
      throw writeFailure(this.path, error);
    }
    this.written += data.length;
    this.writes += 1;
  }

  /** Writes what is gathered and fsyncs; returns the size now durable. */
  async sync(): Promise<number> {
    await this.flush();
    return this.syncWritten();
  }

  /**
   * Fsyncs the bytes written so far (not those still gathered: {@link DurableOutput.flush} them
   * first) and returns how many that is. Only reads the size and the handle, so appends may go on
   * while it runs: a later write lands past the returned size, and the fsync may cover it too.
   */
  async syncWritten(): Promise<number> {
    const size = this.written;
    const writes = this.writes;
    if (writes !== this.syncedWrites && this.seekable) {
      try {
        await this.handle.datasync();
      } catch (error) {
        throw writeFailure(this.path, error);
      }
    }
    this.syncedWrites = Math.max(this.syncedWrites, writes);
    return size;
  }

  /** Syncs and closes; closing again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.sync();
    } finally {
      await this.handle.close();
    }
  }
}
