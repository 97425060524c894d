import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { isPlainName } from './layout.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A file of the archive that cannot be read as one: the reason, in a few words. */
export class ArchiveFileError extends Error {}

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
