import { ConnectionError, TimeoutError } from '../../core/errors/error-classes.js';
import { isAbortLike } from '../../core/transport/network-errors.js';
import type { TransportResponse } from '../../core/transport/types.js';
import type { SenderSettings } from './sender.js';

/** A request's answer, or why none came that a resend may fix (the network, the silence). */
export type Exchange = { readonly answer: TransportResponse } | { readonly unanswered: string };

/** Largest answer read: a `_bulk` answer of 1,000 failed items is some 400 KB. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * POSTs `body` to `path` of the destination: the answer, or `unanswered` with the reason when the
 * connection failed or no answer came within `timeoutMs`. The caller's abort, and failures that
 * are not the network's (a TLS certificate not trusted, a bad URL), are thrown.
 */
export async function post(
  settings: SenderSettings,
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<Exchange> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const answer = await settings.transport.request({
      method: 'POST',
      url: `${settings.base}${path}`,
      headers: { ...settings.headers, ...headers },
      ...(typeof body === 'string' ? { body } : { bodyBytes: body }),
      signal: both,
      maxBytes: MAX_ANSWER_BYTES,
    });
    return { answer };
  } catch (error) {
    if (signal?.aborted) throw error;
    if (timeout.aborted && (isAbortLike(error) || error instanceof TimeoutError))
      return { unanswered: `no answer in ${settings.timeoutMs} ms` };
    if (error instanceof ConnectionError || error instanceof TimeoutError)
      return { unanswered: error.message };
    throw error;
  }
}

/** An answer's text cut to one short line for an error message or a dead-letter reason. */
export function shortText(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}
