import type { FileHandle } from 'node:fs/promises';

/** Bytes read at once. */
const CHUNK = 64 * 1024;

/**
 * The bytes `start` .. `end` (exclusive) of an open file, in chunks; it ends early when the file
 * is shorter. Not `handle.createReadStream`: a stream that must leave the shared handle open at
 * its end keeps a listener on the handle, and a workbook of more than ten zip entries then drew a
 * MaxListenersExceededWarning on stderr.
 */
export async function* fileRange(handle: FileHandle, start: number, end: number): AsyncGenerator<Buffer> {
  for (let at = start; at < end; ) {
    const size = Math.min(CHUNK, end - at);
    const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(size), 0, size, at);
    if (bytesRead === 0) return;
    yield bytesRead === size ? buffer : buffer.subarray(0, bytesRead);
    at += bytesRead;
  }
}
