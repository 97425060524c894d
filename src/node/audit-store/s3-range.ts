import { Readable } from 'node:stream';
import { ArchiveFileError } from './regular-files.js';

// What a bucket store does with the answer to a `Range` GET (s3-store.ts): the object's whole size
// from `Content-Range`, a body cut at the range's end whether or not the store honoured it, and a
// small object's bytes refused from that size before they are read.

/** The object's whole size from a `Content-Range: bytes 0-N/SIZE` answer; undefined without one (or `/*`). */
export function wholeSize(contentRange: string | undefined): number | undefined {
  const match = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * The first `maxBytes` bytes of `body`: the stream ends there and `body` is destroyed, so a store
 * that ignores `Range` (and sends the whole object) is cut off instead of read to its end.
 */
export function firstBytes(body: Readable, maxBytes: number): Readable {
  async function* cut(): AsyncGenerator<Buffer> {
    let left = maxBytes;
    try {
      for await (const chunk of body) {
        const bytes = chunk as Buffer;
        if (bytes.length >= left) {
          yield bytes.subarray(0, left);
          return;
        }
        left -= bytes.length;
        yield bytes;
      }
    } finally {
      body.destroy();
    }
  }
  const out = Readable.from(cut(), { objectMode: false });
  // Destroyed while the generator waits on `body`: its `finally` would run only at the next chunk.
  out.once('close', () => body.destroy());
  return out;
}

/**
 * The bytes of `body`, refused (`ArchiveFileError` `larger than N bytes`, the body destroyed) when
 * its announced whole `size` is over `maxBytes`, before a byte is read, or when more arrive.
 */
export async function bytesUpTo(body: Readable | undefined, size: number, maxBytes: number): Promise<Buffer> {
  const refuse = () => {
    body?.destroy();
    return new ArchiveFileError(`larger than ${maxBytes} bytes`);
  };
  if (size > maxBytes) throw refuse();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body ?? []) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw refuse();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
