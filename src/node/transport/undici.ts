import type { Dispatcher } from 'undici';
import { type ProxyOption, proxyRoutes, proxySettingsOf } from '../../core/proxy-rules.js';
import {
  ATTEMPT_ABORT,
  ATTEMPT_ABORTER,
  type AttemptAbortAware,
} from '../../core/transport/attempt-abort.js';
import { isAbortLike, toRequestFailure } from '../../core/transport/network-errors.js';
import { caOption } from '../../core/transport/pem.js';
import { isProxyAuthAnswer, proxiedFailure, proxyAnswer } from '../../core/transport/proxy-errors.js';
import { finishResponse } from '../../core/transport/read-body.js';
import type { Transport, TransportRequest, TransportResponse } from '../../core/transport/types.js';
import { transportLoadError } from './load-error.js';
import { createUrlSplitter } from './plain-url.js';
import { httpToTlsPort } from './tls-probe.js';
import { trustedCertificates } from './trust.js';
import { UndiciAbort } from './undici-abort.js';
import { loadUndiciParts, type UndiciParts } from './undici-load.js';
import { type DispatcherSettings, type Router, settledRouter } from './undici-routes.js';

/** Options of the default transport. */
export interface UndiciTransportOptions {
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Connect timeout, ms. Default 10000. */
  connectTimeoutMs?: number;
  /** Idle keep-alive time, ms; kept below common server defaults (5 s) to avoid reusing a closing socket. Default 4000. */
  keepAliveTimeoutMs?: number;
  /** The proxy of each request, as `SvcClientOptions.proxy` takes it (curl's NO_PROXY rules). Default: none, every request direct. */
  proxy?: ProxyOption | undefined;
  /** PEM text of CA certificates trusted besides Node's own roots (never instead of them). Default: none, Node's set. */
  ca?: string | readonly string[] | undefined;
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
 * With `proxy`, each origin's route (the proxy curl's rules pick, or direct) is decided on
 * its first request and then found by one Map lookup.
 *
 * @throws {SvcError} code `config` for a proxy URL that is not http(s) or a `ca` without a PEM certificate.
 */
export function createUndiciTransport(
  options: UndiciTransportOptions = {},
  loadParts: () => Promise<UndiciParts> = loadUndiciParts,
): Transport {
  // Parsed now: a bad proxy URL or CA text is an error at creation, not at the first request.
  const load = undiciLoader(options, loadParts);
  const split = createUrlSplitter();
  // Once loaded, used directly: no extra await on the hot path.
  let ready: LoadedUndici | undefined;
  const transport: Transport & AttemptAbortAware = {
    async request(req: TransportRequest): Promise<TransportResponse> {
      ready ??= await load();
      const { router, send } = ready;
      // The host, for error messages only: not parsed on the way of a success.
      const target = () => new URL(req.url).host;
      const method = req.method as 'GET';
      const { headers } = req;
      const body = req.bodyBytes ?? req.body;
      // Our own abort where the pipeline took one (see UndiciAbort): `req.signal` is then a
      // placeholder, never fired.
      const signal = (req as { [ATTEMPT_ABORT]?: UndiciAbort })[ATTEMPT_ABORT] ?? req.signal;
      // The silence between body chunks is undici's own `bodyTimeout` (its parser refreshes one
      // timer per chunk, and `body.text()` stays the fast read); the wait for the headers is the
      // pipeline's. Without a watch, none (the caller bounds the request).
      const watch = req.watch;
      const bodyTimeout = watch === undefined ? 0 : watch.idleMs;
      let res: Dispatcher.ResponseData;
      // The agent's `request` with origin and path apart, as undici's `request(url)` passes
      // them: split without parsing where the URL is plain, else from URL parsing.
      const { origin, path } = split(req.url) ?? urlParts(req.url);
      const { dispatcher, proxy } = router.routeFor(origin);
      try {
        res = await send.call(dispatcher, { origin, path, method, headers, body, signal, bodyTimeout });
      } catch (error) {
        throw await sendFailure(error, { url: req.url, host: target(), proxy, aborted: signal.aborted });
      }
      // A 407 (or Basic 401) to an absolute-URL request is the proxy's answer, not the service's.
      if (proxy && isProxyAuthAnswer(res.statusCode, res.headers)) {
        res.body.on('error', () => {}).destroy();
        throw proxyAnswer(res.statusCode, target(), proxy);
      }
      watch?.handOver();
      try {
        // Awaited here: one microtask, where returning the promise from an async function takes two.
        return await finishResponse(req, responseOf(res), target);
      } catch (error) {
        if (watch !== undefined && isBodyTimeout(error)) watch.silent();
        throw error;
      }
    },
    // Every request ends through an UndiciAbort: the pipeline makes no AbortSignal for it.
    [ATTEMPT_ABORTER]: () => new UndiciAbort(),
    close: async () => {
      const loaded = ready ?? (await load.started()?.catch(() => undefined));
      await Promise.all(loaded?.router.dispatchers().map((d) => d.close()) ?? []);
    },
  };
  return transport;
}

/** The loaded undici: the router of its dispatchers and its `request`. */
interface LoadedUndici {
  router: Router;
  send: UndiciParts['request'];
}

/** Loads undici once and builds the router; `started()` is the load under way, if any. */
function undiciLoader(
  options: UndiciTransportOptions,
  loadParts: () => Promise<UndiciParts>,
): (() => Promise<LoadedUndici>) & { started(): Promise<LoadedUndici> | undefined } {
  const routes = proxyRoutes(proxySettingsOf(options.proxy));
  const extraCa = caOption(options.ca);
  let loading: Promise<LoadedUndici> | undefined;
  const load = () => {
    loading ??= loadParts().then((undici) => {
      const settings: DispatcherSettings = {
        connections: options.connections ?? 64,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
        connectTimeout: options.connectTimeoutMs ?? 10_000,
        // Our own signal enforces timeouts; undici's 300 s defaults would only hide a bug.
        headersTimeout: 0,
        bodyTimeout: 0,
        ca: trustedCertificates(extraCa),
      };
      return { router: settledRouter(undici, routes, settings), send: undici.request };
    });
    return loading.catch((error: unknown) => {
      // Not cached: a later call tries again (and fails the same way, as a configuration error).
      loading = undefined;
      throw transportLoadError('undici', error);
    });
  };
  return Object.assign(load, { started: () => loading });
}

/** The error a failed `request` stands for: the proxy's refusal, an abort, a TLS mix-up or a network failure. */
async function sendFailure(
  error: unknown,
  at: { url: string; host: string; proxy: URL | undefined; aborted: boolean },
): Promise<unknown> {
  // A proxy's refusal comes as an abort too (undici's CONNECT answer): ours fired or not.
  if (at.proxy && !at.aborted) return proxiedFailure(error, at.host, at.proxy);
  if (isAbortLike(error)) return error;
  return (await httpToTlsPort(error, at.url, at.host)) ?? toRequestFailure(error, at.host);
}

/** undici's response as the pipeline reads it. */
function responseOf(res: Dispatcher.ResponseData) {
  const stream = res.body;
  return {
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
  };
}
