import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError } from '../../core/errors/error-classes.js';
import { fileFault } from '../../core/file-faults.js';
import { DEFAULT_FILE_MODE } from './output-file.js';

/**
 * The one way a file is replaced whole (state files, archive files, merged results, workbooks):
 * a temporary file beside the target, created exclusively, never through a symbolic link, with
 * the caller's mode; written, fsynced, renamed over the target, then the directory fsynced, so
 * a crash leaves the old file or the new one, never a mix, and the new name survives a power
 * loss before anything that names it (a state file) is written.
 *
 * Why not a library: write-file-atomic does temp + rename but not the exclusive, O_NOFOLLOW,
 * private temporary file nor the directory fsync; graceful-fs retries a refused rename but does
 * so by patching `fs` for the whole process, which a library must not do. So the retry below
 * does what graceful-fs does on win32, scoped to this module.
 */

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY } = constants;
// Windows has no O_NOFOLLOW; O_EXCL alone refuses an existing link there.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The file system calls this module makes; a test replaces them to make one fail. */
export interface AtomicFileSystem {
  open(path: string, flags: number, mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

const NODE_FS: AtomicFileSystem = { open, rename, rm };

/**
 * How long a refused rename is retried: delays of 10, 20, ... ms growing by 10 up to 100 ms each,
 * until 10 s were spent waiting (about 100 tries). Windows refuses to replace a file another
 * process holds open (an antivirus scan, an indexer, a reader of the state file) with EPERM,
 * EACCES or EBUSY; such holds last milliseconds. One held for good (the workbook open in a
 * spreadsheet) fails after 10 s rather than the 60 s graceful-fs waits.
 */
export const RENAME_RETRY = { stepMs: 10, maxDelayMs: 100, totalMs: 10_000 } as const;

/** The error codes Windows gives for a target another handle holds open. */
const HELD_OPEN = new Set(['EPERM', 'EACCES', 'EBUSY']);

/** Options of {@link createAtomicFile} and {@link replaceFileAtomic}. */
export interface AtomicFileOptions {
  /** Mode of the new file (the umask does not narrow it). Default 0600. */
  mode?: number;
  /**
   * The temporary file. Default: `<path>.<16 random hex digits>.tmp`, beside `path`. A caller that
   * gives a fixed name (audit sync) must hold a lock and remove leftovers of a killed run itself.
   */
  tmp?: string;
  /**
   * The platform, which decides two things: the directory is fsynced except on `win32` (a
   * directory cannot be opened for fsync there, and NTFS journals the rename), and a rename
   * refused with EPERM, EACCES or EBUSY is retried ({@link RENAME_RETRY}) only on `win32`, since
   * on POSIX those codes are lasting (a sticky directory, an immutable file) and waiting would
   * only delay the error. Default `process.platform`.
   */
  platform?: NodeJS.Platform;
  /** Waits `ms` between rename tries. Default a timer. */
  delay?: (ms: number) => Promise<void>;
  /** The file system calls. Default Node's `fs/promises`. */
  fs?: AtomicFileSystem;
}

/** A temporary file that becomes `path` on {@link AtomicFile.commit}. */
export interface AtomicFile {
  /** Open for writing at offset 0; the caller must not close it. */
  readonly handle: FileHandle;
  /** Where the bytes go until the commit. */
  readonly tmp: string;
  /**
   * A stream writing to {@link AtomicFile.handle} in order. Use it rather than
   * `handle.createWriteStream()`, whose stream holds the handle so it cannot be fsynced and closed
   * by the commit.
   */
  writable(): Writable;
  /** Fsyncs and closes the file, renames it over the target and fsyncs the directory. On failure the temporary file is removed. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. Safe to call after a failed commit. */
  discard(): Promise<void>;
}

/** A rename that could not replace its target, e.g. `cannot replace state.json: operation not permitted (EPERM)`. Code `io`; the file system error is the cause. */
export function replaceFailure(path: string, error: unknown): SvcError {
  return new SvcError(`cannot replace ${path}: ${fileFault(error)}`, 'io', { cause: error });
}

/**
 * Renames `from` over `to`; on win32 a refusal because `to` is held open is retried as
 * {@link RENAME_RETRY} says. Any failure is a {@link replaceFailure} carrying the last error.
 */
export async function renameOver(from: string, to: string, options: AtomicFileOptions = {}): Promise<void> {
  const fs = options.fs ?? NODE_FS;
  const retries = (options.platform ?? process.platform) === 'win32';
  const delay = options.delay ?? ((ms: number) => sleep(ms));
  let waited = 0;
  let next: number = RENAME_RETRY.stepMs;
  for (;;) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!retries || !HELD_OPEN.has(code) || waited + next > RENAME_RETRY.totalMs)
        throw replaceFailure(to, error);
      await delay(next);
      waited += next;
      next = Math.min(next + RENAME_RETRY.stepMs, RENAME_RETRY.maxDelayMs);
    }
  }
}

/** Fsyncs a directory so a rename in it survives a power loss; filesystems that cannot (EINVAL) are let be. */
async function syncDirectory(dir: string, fs: AtomicFileSystem): Promise<void> {
  const handle = await fs.open(dir, O_RDONLY);
  try {
    await handle.sync();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done)).bytesWritten;
}

/**
 * Creates the temporary file for replacing `path`: exclusively (an existing file or link at its
 * name is an error, never followed or reused), with `options.mode` (default 0600).
 */
export async function createAtomicFile(path: string, options: AtomicFileOptions = {}): Promise<AtomicFile> {
  const fs = options.fs ?? NODE_FS;
  const mode = options.mode ?? DEFAULT_FILE_MODE;
  const tmp = options.tmp ?? `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await handle.close();
  };
  const discard = async () => {
    await close().catch(() => {});
    await fs.rm(tmp, { force: true });
  };
  try {
    // The umask may have narrowed the mode; the caller's choice wins.
    await handle.chmod(mode);
  } catch (error) {
    await discard();
    throw error;
  }
  return {
    handle,
    tmp,
    discard,
    writable: () =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          writeAll(handle, chunk).then(() => done(), done);
        },
        // Chunks queued while a write runs go out as one (exceljs writes many small ones).
        writev(chunks, done) {
          writeAll(handle, Buffer.concat(chunks.map((c) => c.chunk as Buffer))).then(() => done(), done);
        },
      }),
    async commit() {
      try {
        await handle.sync();
        await close();
        await renameOver(tmp, path, options);
      } catch (error) {
        await discard();
        throw error;
      }
      if ((options.platform ?? process.platform) !== 'win32') await syncDirectory(dirname(path), fs);
    },
  };
}

/**
 * Replaces `path` atomically with `content` through {@link createAtomicFile}: the old file or the
 * new one is there at every moment, never a part. `content` may be an async iterable of chunks,
 * streamed (memory bounded whatever its size).
 */
export async function replaceFileAtomic(
  path: string,
  content: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  options: AtomicFileOptions = {},
): Promise<void> {
  const file = await createAtomicFile(path, options);
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) await file.handle.writeFile(content);
    else for await (const chunk of content) await file.handle.writeFile(chunk);
  } catch (error) {
    await file.discard();
    throw error;
  }
  await file.commit();
}
