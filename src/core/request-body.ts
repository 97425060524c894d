/** Default cap on the request body an adapter reads, bytes: 64 KiB, plenty for a form. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** A body read to its end, or why not. */
export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-large' | 'unreadable' };

/** The parts of a `node:http` `IncomingMessage` the reader uses. */
export interface NodeBodyStream {
  headers: Record<string, string | string[] | undefined>;
  readableEnded?: boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  pause(): unknown;
}

function declaredTooLarge(length: string | null | undefined, limit: number): boolean {
  return length !== null && length !== undefined && Number(length) > limit;
}

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * Reads a `node:http` request body up to `limit` bytes. Past the limit it stops listening and
 * pauses the stream (no byte more is kept); the caller answers 413 and should close the
 * connection. A declared `content-length` over the limit is refused without reading.
 */
export function readNodeBody(req: NodeBodyStream, limit: number): Promise<BodyRead> {
  const length = req.headers['content-length'];
  if (declaredTooLarge(Array.isArray(length) ? length[0] : length, limit)) {
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  if (req.readableEnded) return Promise.resolve({ ok: true, bytes: new Uint8Array() });
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const done = (read: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFailure);
      req.off('close', onFailure);
      resolve(read);
    };
    // A Node stream gives Buffers, or strings once someone called setEncoding: bytes either way.
    const onData = (data: unknown) => {
      const chunk = data instanceof Uint8Array ? data : new TextEncoder().encode(String(data));
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        req.pause();
        done({ ok: false, reason: 'too-large' });
      }
    };
    const onEnd = () => done({ ok: true, bytes: joined(chunks, size) });
    const onFailure = () => done({ ok: false, reason: 'unreadable' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}

/**
 * Reads a Web `Request` body up to `limit` bytes from a clone, so the handler can still read the
 * original. Past the limit the read is cancelled.
 */
export async function readWebBody(request: Request, limit: number): Promise<BodyRead> {
  if (declaredTooLarge(request.headers.get('content-length'), limit))
    return { ok: false, reason: 'too-large' };
  if (request.bodyUsed) return { ok: false, reason: 'unreadable' };
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  const reader = (request.clone().body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { ok: true, bytes: joined(chunks, size) };
      size += value.length;
      if (size > limit) {
        // Not awaited: cancelling one branch of a tee settles only once the other branch is
        // cancelled too, and the original stays for the handler.
        reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}
