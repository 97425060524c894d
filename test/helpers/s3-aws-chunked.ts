/**
 * The `aws-chunked` content encoding the AWS SDK uses for streamed bodies with checksums:
 * `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n` repeated, a zero-size chunk, then trailer
 * lines (`x-amz-checksum-crc32:...`) and an empty line. s3rver 3.7.1 stores this framing as the
 * object's bytes; the test server decodes it first.
 */
export interface DecodedChunkedBody {
  body: Buffer;
  /** Trailer headers, names lower-cased (e.g. `x-amz-checksum-crc32`). */
  trailers: Record<string, string>;
}

const CRLF = Buffer.from('\r\n');

/** Decodes a whole `aws-chunked` body; throws on any framing fault (truncated, bad size, junk). */
export function decodeAwsChunked(raw: Buffer): DecodedChunkedBody {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const lineEnd = raw.indexOf(CRLF, pos);
    if (lineEnd < 0) throw new Error('aws-chunked: chunk header without CRLF');
    const sizeText = raw.subarray(pos, lineEnd).toString('latin1').split(';')[0] ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new Error(`aws-chunked: bad chunk size "${sizeText}"`);
    const size = Number.parseInt(sizeText, 16);
    pos = lineEnd + 2;
    if (size === 0) break;
    if (pos + size + 2 > raw.length) throw new Error('aws-chunked: truncated chunk');
    parts.push(raw.subarray(pos, pos + size));
    if (!raw.subarray(pos + size, pos + size + 2).equals(CRLF))
      throw new Error('aws-chunked: chunk without CRLF');
    pos += size + 2;
  }
  const trailers: Record<string, string> = {};
  for (;;) {
    const lineEnd = raw.indexOf(CRLF, pos);
    if (lineEnd < 0) {
      // Some encoders end the body right after the last chunk header (no trailer, no empty line).
      if (pos === raw.length) break;
      throw new Error('aws-chunked: trailer without CRLF');
    }
    const line = raw.subarray(pos, lineEnd).toString('latin1');
    pos = lineEnd + 2;
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error('aws-chunked: malformed trailer line');
    trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (pos !== raw.length) throw new Error('aws-chunked: bytes after the final chunk');
  return { body: Buffer.concat(parts), trailers };
}
