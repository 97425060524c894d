import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { AbortError } from '../../core/errors/error-classes.js';
import type { ArchiveStore } from '../store/archive-store.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A file of the archive that cannot be read as one: the reason, in a few words. */
export class ArchiveFileError extends Error {}

/** Whether `name` is a plain file name (no folder part, not `.` or `..`): names from a manifest are untrusted. */
export const isPlainName = (name: string): boolean =>
  name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);

/** Throws `AbortError` once `signal` fired. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('The verify was interrupted');
}

/**
 * Opens a file of the archive for reading only when it is a regular file directly inside `dir`:
 * never through a symbolic link (`O_NOFOLLOW`), never blocking on a FIFO (`O_NONBLOCK`), and
 * checked on the open handle (`fstat`), so a device or a FIFO is refused before a byte is read.
 */
export async function openRegular(dir: string, name: string): Promise<FileHandle> {
  if (!isPlainName(name)) throw new ArchiveFileError('not a file name inside the archive');
  let handle: FileHandle;
  try {
    handle = await open(join(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ArchiveFileError('missing');
    if (code === 'ELOOP') throw new ArchiveFileError('a symbolic link, not a regular file');
    throw new ArchiveFileError(`cannot be opened (${code ?? 'error'})`);
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new ArchiveFileError('not a regular file (a FIFO, device or folder)');
  }
  return handle;
}

/** The bytes of a regular file of the archive, refused when larger than `maxBytes`. */
export async function readRegular(dir: string, name: string, maxBytes: number): Promise<Buffer> {
  const handle = await openRegular(dir, name);
  try {
    if ((await handle.stat()).size > maxBytes) throw new ArchiveFileError(`larger than ${maxBytes} bytes`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * sha256 and size of an object of the archive; stops with `AbortError` between chunks once
 * `signal` fired. With `maxBytes`, no more is fetched (a longer object gives `bytes: maxBytes`
 * and the digest of those bytes): verify asks for a listed file's size plus one.
 */
export async function hashObject(
  store: ArchiveStore,
  name: string,
  signal?: AbortSignal,
  maxBytes?: number,
): Promise<{ sha256: string; bytes: number }> {
  const file = await store.readStream(name, maxBytes === undefined ? {} : { maxBytes });
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of file) {
      checkAborted(signal);
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } finally {
    file.destroy();
  }
  return { sha256: hash.digest('hex'), bytes };
}
