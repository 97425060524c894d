import type { Agent, request } from 'undici';
import { SvcError } from '../errors/svc-error.js';
import { isAbortLike, toConnectionError } from './network-errors.js';
import { announcedLength, announcedTooLarge, capFor, readLimited, tooLarge } from './read-body.js';
import type { Transport, TransportRequest, TransportResponse } from './types.js';

/** Options of the default transport. */
export interface UndiciTransportOptions {
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Connect timeout, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Idle keep-alive time, ms; kept below common server defaults (5 s) to avoid reusing a closing socket. Default 4000. */
  keepAliveTimeoutMs?: number;
}

const decoder = new TextDecoder();

/**
 * undici `request` on a keep-alive Agent: the fastest transport on Node. Never follows redirects.
 * undici is loaded on the first request, so code that only uses the offline helpers, or that
 * passes its own `fetch` (edge runtimes, Bun, Deno), never loads it. `request` does not decode
 * `Content-Encoding` (and the client does not ask for it), so the byte cap counts what arrives.
 */
export function createUndiciTransport(options: UndiciTransportOptions = {}): Transport {
  let loading: Promise<{ agent: Agent; send: typeof request }> | undefined;
  // Once loaded, used directly: no extra await on the hot path.
  let ready: { agent: Agent; send: typeof request } | undefined;
  const load = () =>
    (loading ??= import('undici').then((undici) => ({
      agent: new undici.Agent({
        connections: options.connections ?? 64,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        // Our own signal enforces timeouts; undici's 300 s defaults would only hide a bug.
        headersTimeout: 0,
        bodyTimeout: 0,
      }),
      send: undici.request,
    })));
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      ready ??= await load();
      const { agent, send } = ready;
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await send(req.url, {
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          signal: req.signal,
          dispatcher: agent,
        });
      } catch (error) {
        if (isAbortLike(error)) throw error;
        throw toConnectionError(error, new URL(req.url).host);
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const limit = capFor(res.statusCode, req);
      const success = res.statusCode >= 200 && res.statusCode < 300 && req.responseType === 'bytes';
      const host = new URL(req.url).host;
      const stream = res.body;
      if (announcedTooLarge(headers['content-length'], limit)) {
        stream.destroy();
        throw tooLarge(limit, res.statusCode, host);
      }
      let bytes: Uint8Array;
      try {
        const chunks = stream[Symbol.asyncIterator]();
        bytes = await readLimited(
          async () => {
            const step = await chunks.next();
            return step.done ? undefined : (step.value as Uint8Array);
          },
          () => stream.destroy(),
          limit,
          () => tooLarge(limit, res.statusCode, host),
          announcedLength(headers['content-length']),
          success && req.bodyBuffer ? req.bodyBuffer : undefined,
        );
      } catch (error) {
        if (error instanceof SvcError || isAbortLike(error)) throw error;
        throw toConnectionError(error, host);
      }
      if (req.responseType === 'bytes') return { status: res.statusCode, headers, body: '', bytes };
      return { status: res.statusCode, headers, body: decoder.decode(bytes) };
    },
    close: async () => {
      if (loading) await (await loading).agent.close();
    },
  };
}
