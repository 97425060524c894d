import { ResponseTooLargeError, SvcError } from '../errors/error-classes.js';
import { isAbortLike, toConnectionError } from './network-errors.js';
import type { SilenceWatch, TransportRequest, TransportResponse } from './types.js';

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

// Node's pooled allocation without zero-filling where there is one (every byte is written before
// it is read); a plain Uint8Array on runtimes without `Buffer` (Workers, edge, Deno).
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafe(size: number): Uint8Array } }).Buffer;
const allocBytes: (size: number) => Uint8Array = NodeBuffer
  ? (size) => NodeBuffer.allocUnsafe(size)
  : (size) => new Uint8Array(size);

/** Joins chunks into one buffer of `total` bytes (no copy for a single chunk). */
export function joinChunks(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = allocBytes(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The announced body length when it is a plain number, else undefined. */
export function announcedLength(contentLength: string | null | undefined): number | undefined {
  if (contentLength == null || !/^\d+$/.test(contentLength.trim())) return undefined;
  return Number(contentLength.trim());
}

/**
 * Reads a body chunk by chunk, at most `limit` bytes: past it, `stop` is called (it must destroy
 * the stream and drop the connection) and {@link ResponseTooLargeError} is thrown. Nothing past
 * the limit is kept, so memory stays bounded whatever the server sends. With `expected` (the
 * announced length, within the limit), each chunk is copied into one buffer of that size as it
 * arrives (into `allocate(expected)`, default a new buffer), so the chunks are garbage at once and
 * the body is copied once; a body that turns out longer than announced is joined from its chunks
 * instead.
 */
export async function readLimited(
  next: () => Promise<Uint8Array | undefined>,
  stop: () => void,
  limit: number,
  error: () => ResponseTooLargeError,
  expected?: number,
  allocate: (size: number) => Uint8Array = allocBytes,
): Promise<Uint8Array> {
  let chunks: Uint8Array[] = [];
  let total = 0;
  let body =
    expected !== undefined && expected > 0 && expected <= limit
      ? allocate(expected).subarray(0, expected)
      : undefined;
  for (;;) {
    const chunk = await next();
    if (chunk === undefined) break;
    if (total + chunk.length > limit) {
      chunks.length = 0;
      body = undefined;
      stop();
      throw error();
    }
    if (body !== undefined && total + chunk.length <= body.length) body.set(chunk, total);
    else {
      if (body !== undefined) {
        // Longer than announced: continue with the chunks read so far.
        chunks = [body.subarray(0, total)];
        body = undefined;
      }
      chunks.push(chunk);
    }
    total += chunk.length;
  }
  if (body !== undefined) return total === body.length ? body : body.subarray(0, total);
  return joinChunks(chunks, total);
}

/** A response as a Node transport received it, before its body is read. */
export interface ReceivedResponse {
  status: number;
  /** Header names in lower case; repeated headers as arrays. */
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and drops the connection. */
  destroy(): void;
  /**
   * Reads the whole body at once, where the transport has a faster way than iterating it (undici's
   * `body.bytes()`). Used only for a body whose announced length is within its cap: the transport
   * must fail a body longer or shorter than announced.
   */
  readAll?(): Promise<Uint8Array>;
  // readAll and readText report no chunk to the request's `watch`: only for a transport that
  // watches the body's silence itself (and has handed the watch over).
  /**
   * {@link ReceivedResponse.readAll} as UTF-8 text (a byte order mark dropped, malformed bytes
   * replaced, as `TextDecoder` does), where the transport decodes without copying the bytes
   * first (undici's `body.text()`). Used under the same conditions, for a `text` response.
   */
  readText?(): Promise<string>;
}

const decoder = new TextDecoder();

/**
 * The rest of a transport's work once the status and headers are in, the same for every Node
 * transport: headers joined to strings, the body read within the request's caps
 * ({@link readLimited}; into `bodyBuffer` for a `bytes` success), each chunk reported to the
 * request's `watch` (so the attempt's timeout counts silence, not the download), and a failure while reading
 * turned into a {@link ConnectionError} naming the host `target()` gives (called only for an
 * error message; caps and aborts pass as they are).
 */
export async function finishResponse(
  req: TransportRequest,
  res: ReceivedResponse,
  target: () => string,
): Promise<TransportResponse> {
  const { status } = res;
  const headers = joinedHeaders(res.headers);
  const limit = capFor(status, req);
  const expected = announcedLength(headers['content-length']);
  if (expected !== undefined && expected > limit) {
    res.destroy();
    throw tooLarge(limit, status, target());
  }
  const success = status >= 200 && status < 300 && req.responseType === 'bytes';
  const into = success && req.bodyBuffer ? req.bodyBuffer : undefined;
  let bytes: Uint8Array;
  try {
    // Announced and within the cap (checked above): read at once, without an async iterator.
    const whole = expected !== undefined && into === undefined;
    if (whole && res.readText && req.responseType !== 'bytes') {
      return { status, headers, body: await res.readText() };
    }
    if (whole && res.readAll) bytes = await res.readAll();
    else
      bytes = await readChunks(
        res,
        limit,
        () => tooLarge(limit, status, target()),
        expected,
        into,
        req.watch,
      );
  } catch (error) {
    if (error instanceof SvcError || isAbortLike(error)) throw error;
    throw toConnectionError(error, target());
  }
  if (req.responseType === 'bytes') return { status, headers, body: '', bytes };
  return { status, headers, body: decoder.decode(bytes) };
}

/**
 * Headers with repeated ones joined by `, `. The object received is returned as it is when no
 * header repeats (the usual case: no copy); it is the transport's own, used by nothing else.
 */
function joinedHeaders(
  received: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  let joined: Record<string, string | undefined> | undefined;
  for (const name of Object.keys(received)) {
    if (Array.isArray(received[name])) {
      joined = {};
      break;
    }
  }
  if (joined === undefined) return received as Record<string, string | undefined>;
  for (const name of Object.keys(received)) {
    const value = received[name];
    joined[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return joined;
}

/** {@link readLimited} over the chunks of a received body, each one reported to `watch`. */
function readChunks(
  res: ReceivedResponse,
  limit: number,
  error: () => ResponseTooLargeError,
  expected: number | undefined,
  into: ((size: number) => Uint8Array) | undefined,
  watch: SilenceWatch | undefined,
): Promise<Uint8Array> {
  const chunks = res.body[Symbol.asyncIterator]();
  return readLimited(
    async () => {
      const step = await chunks.next();
      if (step.done) return undefined;
      watch?.heard();
      return step.value;
    },
    () => res.destroy(),
    limit,
    error,
    expected,
    into,
  );
}
