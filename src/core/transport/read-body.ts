import { ResponseTooLargeError } from '../errors/response-too-large-error.js';

/** Reading stops here: the body passed `limit` bytes. */
export function tooLarge(limit: number, status: number, host: string): ResponseTooLargeError {
  return new ResponseTooLargeError(
    `Response from ${host} (status ${status}) is larger than the limit of ${limit} bytes; stopped reading`,
    limit,
    status,
  );
}

/** The cap of a response with this status: error bodies have their own (smaller) one. */
export function capFor(
  status: number,
  request: { maxBytes?: number | undefined; maxErrorBytes?: number | undefined },
): number {
  const success = status >= 200 && status < 300;
  const cap = success ? request.maxBytes : (request.maxErrorBytes ?? request.maxBytes);
  return cap ?? Number.POSITIVE_INFINITY;
}

/** True when a `Content-Length` header already announces more than `limit` bytes. */
export function announcedTooLarge(contentLength: string | null | undefined, limit: number): boolean {
  if (contentLength == null || !/^\d+$/.test(contentLength.trim())) return false;
  return Number(contentLength.trim()) > limit;
}

/** Joins chunks into one array of `total` bytes (no copy for a single chunk). */
export function joinChunks(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Reads a body chunk by chunk, at most `limit` bytes: past it, `stop` is called (it must destroy
 * the stream and drop the connection) and {@link ResponseTooLargeError} is thrown. Nothing past
 * the limit is kept, so memory stays bounded whatever the server sends.
 */
export async function readLimited(
  next: () => Promise<Uint8Array | undefined>,
  stop: () => void,
  limit: number,
  error: () => ResponseTooLargeError,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = await next();
    if (chunk === undefined) break;
    total += chunk.length;
    if (total > limit) {
      chunks.length = 0;
      stop();
      throw error();
    }
    chunks.push(chunk);
  }
  return joinChunks(chunks, total);
}
