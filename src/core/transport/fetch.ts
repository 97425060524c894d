import { SvcError } from '../errors/error-classes.js';
import { isAbortLike, toConnectionError, toRequestFailure } from './network-errors.js';
import { announcedLength, announcedTooLarge, capFor, readLimited, tooLarge } from './read-body.js';
import type { FetchLike, Transport, TransportRequest, TransportResponse } from './types.js';

const decoder = new TextDecoder();

/**
 * The runtime's global `fetch`, looked up at each call: called through `globalThis`, never
 * unbound (Cloudflare Workers throw "Illegal invocation" for a detached `fetch`), and a `fetch`
 * patched later (nock, MSW) is seen.
 */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/**
 * A transport over any fetch-compatible function (edge runtimes, Bun, Deno, or nock-based tests,
 * since nock cannot see undici's own `request`). Redirects are returned, never followed. `fetch`
 * decodes `Content-Encoding` (gzip, br, deflate) itself; the body is read chunk by chunk and the
 * byte cap counts the decoded bytes, so a compression bomb stops at the cap.
 */
export function createFetchTransport(fetchImpl: FetchLike = globalFetch): Transport {
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const host = new URL(req.url).host;
      let res: Response;
      let bytes: Uint8Array;
      let responded = false;
      try {
        res = await fetchImpl(req.url, {
          method: req.method,
          headers: req.headers,
          body: (req.bodyBytes as RequestInit['body']) ?? req.body,
          signal: req.signal,
          redirect: 'manual',
        });
        responded = true;
        // The answer started: from now the attempt's timeout counts silence between chunks.
        const watch = req.watch;
        watch?.heard();
        const status = res.status;
        const limit = capFor(status, req);
        const encoded = res.headers.get('content-encoding');
        const body = res.body;
        if (
          (!encoded || encoded === 'identity') &&
          announcedTooLarge(res.headers.get('content-length'), limit)
        ) {
          await body?.cancel().catch(() => {});
          throw tooLarge(limit, status, host);
        }
        if (body === null) bytes = new Uint8Array();
        else {
          const reader = body.getReader();
          bytes = await readLimited(
            async () => {
              const step = await reader.read();
              if (step.done) return undefined;
              watch?.heard();
              return step.value;
            },
            () => {
              reader.cancel().catch(() => {});
            },
            limit,
            () => tooLarge(limit, status, host),
            // The announced length counts encoded bytes: only a plain body can be preallocated.
            !encoded || encoded === 'identity'
              ? announcedLength(res.headers.get('content-length'))
              : undefined,
            status >= 200 && status < 300 && req.responseType === 'bytes' ? req.bodyBuffer : undefined,
          );
        }
      } catch (error) {
        if (error instanceof SvcError || isAbortLike(error)) throw error;
        // Once headers arrived, a failure reading the body is the connection's; before, it may be local.
        throw responded ? toConnectionError(error, host) : toRequestFailure(error, host);
      }
      const headers: Record<string, string | undefined> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      if (req.responseType === 'bytes') return { status: res.status, headers, body: '', bytes };
      return { status: res.status, headers, body: decoder.decode(bytes) };
    },
  };
}
