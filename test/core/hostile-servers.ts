import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createBrotliCompress, createGzip } from 'node:zlib';

/** A stream that yields `head`, then `chunk` forever, produced only as fast as it is read (nothing is allocated ahead). */
export function endless(head: string, chunk: string | Buffer): Readable {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  let started = false;
  return new Readable({
    read() {
      if (!started) {
        started = true;
        this.push(Buffer.from(head));
      }
      this.push(bytes);
    },
  });
}

/** Streams `source` into `res` and counts what was written; stops when the client goes away. */
export function pump(res: ServerResponse, source: Readable, sent: { bytes: number }): void {
  source.on('data', (chunk: Buffer) => {
    sent.bytes += chunk.length;
  });
  res.on('close', () => source.destroy());
  source.pipe(res);
}

/** A compression bomb made on the fly: `head` then endless zeros (JSON spaces would do as well), compressed. */
export function bomb(encoding: 'gzip' | 'br', head = '{"verificationId":"'): Readable {
  const zeros = endless(head, Buffer.alloc(1 << 20, 0x30));
  const compress = encoding === 'gzip' ? createGzip({ level: 9 }) : createBrotliCompress();
  zeros.on('error', () => {});
  compress.on('close', () => zeros.destroy());
  return zeros.pipe(compress);
}
