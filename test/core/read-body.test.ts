import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/error-classes.js';
import { readLimited } from '../../src/core/transport/read-body.js';

/** Reads `chunks` with the given cap and announced length. */
function read(
  chunks: string[],
  limit: number,
  expected?: number,
  allocate?: (size: number) => Uint8Array,
): Promise<Uint8Array> {
  const queue = chunks.map((c) => Buffer.from(c));
  let stopped = false;
  return readLimited(
    async () => (stopped ? undefined : queue.shift()),
    () => {
      stopped = true;
    },
    limit,
    () => new ResponseTooLargeError('too large', limit, 200),
    expected,
    allocate,
  );
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('a body is read whole, whatever length the server announced', () => {
  it('gives the bytes when the announced length is right, short, long or absent', async () => {
    const chunks = ['{"a":', '1,"b"', ':[2]}'];
    for (const expected of [15, 10, 20, undefined, 0]) {
      expect(text(await read(chunks, 100, expected)), String(expected)).toBe('{"a":1,"b":[2]}');
    }
  });

  it('stops at the cap even when the announced length is within it', async () => {
    await expect(read(['12345', '67890'], 8, 8)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('reads into the buffer the caller gives (one larger than the body is viewed)', async () => {
    const mine = Buffer.alloc(32);
    const bytes = await read(['{"a":', '1}'], 100, 7, () => mine);
    expect(text(bytes)).toBe('{"a":1}');
    expect(bytes.buffer).toBe(mine.buffer);
  });
});
