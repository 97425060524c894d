import { isAbortLike, toConnectionError } from './network-errors.js';
import type { FetchLike, Transport, TransportRequest, TransportResponse } from './types.js';

/**
 * A transport over any fetch-compatible function (edge runtimes, Bun, Deno, or nock-based tests,
 * since nock cannot see undici's own `request`). Redirects are returned, never followed.
 */
export function createFetchTransport(fetchImpl: FetchLike = globalThis.fetch as FetchLike): Transport {
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      let res: Response;
      let body = '';
      let bytes: Uint8Array | undefined;
      try {
        res = await fetchImpl(req.url, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal: req.signal,
          redirect: 'manual',
        });
        if (req.responseType === 'bytes') bytes = new Uint8Array(await res.arrayBuffer());
        else body = await res.text();
      } catch (error) {
        if (isAbortLike(error)) throw error;
        throw toConnectionError(error, new URL(req.url).host);
      }
      const headers: Record<string, string | undefined> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: res.status, headers, body, ...(bytes && { bytes }) };
    },
  };
}
