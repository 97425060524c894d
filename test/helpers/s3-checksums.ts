import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The flexible checksums the test server can compute, by header name. */
const ALGORITHMS: Record<string, (body: Buffer) => string> = {
  'x-amz-checksum-crc32': (body) => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(crc32(body) >>> 0);
    return out.toString('base64');
  },
  'x-amz-checksum-sha1': (body) => createHash('sha1').update(body).digest('base64'),
  'x-amz-checksum-sha256': (body) => createHash('sha256').update(body).digest('base64'),
};

/**
 * The first checksum in `claimed` (request headers or aws-chunked trailers) that does not match
 * `body`, or undefined. Algorithms Node cannot compute without a dependency (CRC32C, CRC64NVME)
 * pass unchecked: S3 would check them, the test server cannot.
 */
export function checksumMismatch(body: Buffer, claimed: Record<string, unknown>): string | undefined {
  for (const [name, compute] of Object.entries(ALGORITHMS)) {
    const value = claimed[name];
    if (typeof value === 'string' && value !== compute(body)) return name;
  }
  const md5 = claimed['content-md5'];
  if (typeof md5 === 'string' && md5 !== createHash('md5').update(body).digest('base64'))
    return 'content-md5';
  return undefined;
}
