// A pushed body's bytes once inflated, read chunk by chunk from `DecompressionStream` so a small
// gzip body that inflates to gigabytes is refused after the cap, not held whole.

/**
 * Bytes of the body to parse, or why there are none (400 corrupt, 413 too large, 415 a coding that is
 * neither gzip nor identity, or gzip in a runtime without `DecompressionStream`).
 */
export type InflatedBody =
  | { ok: true; bytes: Uint8Array; gzip: boolean }
  | { ok: false; status: 400 | 413 | 415; reason: string };

const tooLarge = (maxBytes: number, inflated: boolean) =>
  ({
    ok: false,
    status: 413,
    reason: `larger than ${maxBytes} bytes${inflated ? ' once inflated' : ''}`,
  }) as const;

/** Gzip when the sender says so (`gzip`, `x-gzip`) or the body opens with gzip's magic bytes 1f 8b. */
function _coding(body: Uint8Array, contentEncoding: string | undefined): 'gzip' | 'identity' | 'other' {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding !== '' && coding !== 'identity') return 'other';
  return body[0] === 0x1f && body[1] === 0x8b ? 'gzip' : 'identity';
}

/**
 * The body to parse: `body` itself, or its gzip inflated, at most `maxBytes` either way. Reading
 * stops at the first chunk past the cap and cancels the stream, so no more is inflated.
 */
export async function inflatePushBody(
  body: Uint8Array,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<InflatedBody> {
  const coding = _coding(body, contentEncoding);
  if (coding === 'other') {
    return { ok: false, status: 415, reason: 'content-encoding is neither gzip nor identity' };
  }
  if (coding === 'identity') {
    return body.length > maxBytes ? tooLarge(maxBytes, false) : { ok: true, bytes: body, gzip: false };
  }
  if (typeof DecompressionStream === 'undefined') {
    // Vercel's Edge Runtime has none (vercel/edge-runtime#750): say so, rather than throw a
    // ReferenceError that a receiver answers with a 500 and the sender retries forever.
    return {
      ok: false,
      status: 415,
      reason: 'gzip cannot be inflated here: the runtime has no DecompressionStream',
    };
  }

  const reader = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(body);
      controller.close();
    },
  })
    .pipeThrough(new DecompressionStream('gzip'))
    .getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        return tooLarge(maxBytes, true);
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, reason: 'the gzip body is corrupt or cut short' };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { ok: true, bytes, gzip: true };
}
