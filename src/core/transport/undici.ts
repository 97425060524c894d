import type { Agent, Dispatcher } from 'undici';
import { ATTEMPT_ABORT, ATTEMPT_ABORTER, type AttemptAbortAware } from './attempt-abort.js';
import { transportLoadError } from './load-error.js';
import { isAbortLike, toRequestFailure } from './network-errors.js';
import { createUrlSplitter } from './plain-url.js';
import { finishResponse } from './read-body.js';
import type { Transport, TransportRequest, TransportResponse } from './types.js';
import { UndiciAbort } from './undici-abort.js';
import { loadUndiciParts, type UndiciParts } from './undici-load.js';

/** Options of the default transport. */
export interface UndiciTransportOptions {
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Connect timeout, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Idle keep-alive time, ms; kept below common server defaults (5 s) to avoid reusing a closing socket. Default 4000. */
  keepAliveTimeoutMs?: number;
}

/** Whether undici's `bodyTimeout` ended a body (the error as `finishResponse` wraps it). */
function isBodyTimeout(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === 'UND_ERR_BODY_TIMEOUT';
}

/** Origin and path of a URL as undici's `request(url)` takes them (`pathname` plus `search`). */
function urlParts(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/**
 * undici `request` on a keep-alive Agent: the fastest transport on Node. Never follows redirects.
 * undici is loaded on the first request (undici-load.ts), so code
 * that only uses the offline helpers, or that passes its own `fetch` (edge runtimes, Bun, Deno),
 * never loads it. `request` does not decode
 * `Content-Encoding` (and the client does not ask for it), so the byte cap counts what arrives.
 */
export function createUndiciTransport(
  options: UndiciTransportOptions = {},
  loadParts: () => Promise<UndiciParts> = loadUndiciParts,
): Transport {
  type Loaded = { agent: Agent; send: UndiciParts['request'] };
  let loading: Promise<Loaded> | undefined;
  const split = createUrlSplitter();
  // Once loaded, used directly: no extra await on the hot path.
  let ready: Loaded | undefined;
  const load = () => {
    loading ??= loadParts().then((undici) => ({
      agent: new undici.Agent({
        connections: options.connections ?? 64,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        // Our own signal enforces timeouts; undici's 300 s defaults would only hide a bug.
        headersTimeout: 0,
        bodyTimeout: 0,
      }),
      send: undici.request,
    }));
    return loading.catch((error: unknown) => {
      // Not cached: a later call tries again (and fails the same way, as a configuration error).
      loading = undefined;
      throw transportLoadError('undici', error);
    });
  };
  const transport: Transport & AttemptAbortAware = {
    async request(req: TransportRequest): Promise<TransportResponse> {
      ready ??= await load();
      const { agent, send } = ready;
      // The host, for error messages only: not parsed on the way of a success.
      const target = () => new URL(req.url).host;
      const method = req.method as 'GET';
      const { headers, body } = req;
      // Our own abort where the pipeline took one (see UndiciAbort): `req.signal` is then a
      // placeholder, never fired.
      const signal = (req as { [ATTEMPT_ABORT]?: UndiciAbort })[ATTEMPT_ABORT] ?? req.signal;
      // The silence between body chunks is undici's own `bodyTimeout` (its parser refreshes one
      // timer per chunk, and `body.text()` stays the fast read); the wait for the headers is the
      // pipeline's. Without a watch, none (the caller bounds the request).
      const watch = req.watch;
      const bodyTimeout = watch === undefined ? 0 : watch.idleMs;
      let res: Dispatcher.ResponseData;
      try {
        // The agent's `request` with origin and path apart, as undici's `request(url)` passes
        // them: split without parsing where the URL is plain, else from URL parsing.
        const { origin, path } = split(req.url) ?? urlParts(req.url);
        res = await send.call(agent, { origin, path, method, headers, body, signal, bodyTimeout });
      } catch (error) {
        if (isAbortLike(error)) throw error;
        throw toRequestFailure(error, target());
      }
      watch?.handOver();
      const stream = res.body;
      try {
        // Awaited here: one microtask, where returning the promise from an async function takes two.
        return await finishResponse(
          req,
          {
            status: res.statusCode,
            headers: res.headers,
            body: stream,
            // A body dropped unread (over its cap) errors with UND_ERR_ABORTED: nothing may listen
            // any more, so without this listener that error would be uncaught and stop the process.
            destroy: () => stream.on('error', () => {}).destroy(),
            // undici collects a body of announced length itself, without an async iterator per response.
            readAll: () => stream.bytes(),
            // And as text without copying the bytes first (`bytes()` copies even a single chunk).
            readText: () => stream.text(),
          },
          target,
        );
      } catch (error) {
        if (watch !== undefined && isBodyTimeout(error)) watch.silent();
        throw error;
      }
    },
    // Every request ends through an UndiciAbort: the pipeline makes no AbortSignal for it.
    [ATTEMPT_ABORTER]: () => new UndiciAbort(),
    close: async () => {
      const loaded = ready ?? (loading && (await loading.catch(() => undefined)));
      await loaded?.agent.close();
    },
  };
  return transport;
}
