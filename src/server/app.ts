import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { allowedHostHeaders, isAllowedHost } from '../core/host-guard.js';
import { maskKey } from '../core/redact.js';
import { type HttpServerLimits, httpServerOptions, limitHttpServer } from '../node/http/limits.js';
import { closeHttp, listenHttp } from '../node/http/listen.js';
import type { AuditStreamOptions } from './audit/stream-delivery.js';
import { authenticate } from './auth.js';
import type { Clock } from './clock.js';
import { answerPreflight, applyLoopbackCors, checkDevMutation, isDevPath } from './dev-guard.js';
import { applyResponseFault } from './faults.js';
import type { Principal } from './fixtures.js';
import type { ServerModule } from './module.js';
import { HttpProblem, sendProblem } from './problem.js';
import { parseRequestTarget } from './request-target.js';
import { type RouteContext, Router } from './router.js';
import { ServerState } from './state.js';
import type { WebhookSenderOptions } from './tax/webhook-sender.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /**
   * Interface to bind. Default `127.0.0.1`. Requests must carry a `Host` of this name or of a
   * loopback name (`127.0.0.1`, `localhost`, `[::1]`) with the port, else 403 (DNS rebinding).
   */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Clock to use; default wall time that the admin API can move. */
  clock?: Clock;
  /**
   * Real time in ms, for what measures requests per second (the rate limiter of
   * `POST /__admin/rate-limit`); never moved by the admin clock. Default `performance.now()`.
   */
  now?: () => number;
  /**
   * Webhook delivery: connections per endpoint, queue bound, retry schedule (`retryDelaysMs`,
   * default 1 s, 5 s, 30 s, 2 min, 10 min), attempt timeout, records kept, retry timer.
   */
  webhooks?: WebhookSenderOptions;
  /**
   * Audit streaming (`POST /__admin/audit-streams`): batches in flight per stream (default 4),
   * the backoff (`firstRetryDelayMs` 500 doubling up to `maxRetryDelayMs` 30,000; retried for as
   * long as the stream exists), attempt timeout (default 10,000 ms), retry timer.
   */
  auditStreams?: AuditStreamOptions;
  /**
   * What one client may hold: connections open at once (default 1024, well above what several
   * pooled clients of 64 sockets each keep alive; past it the oldest idle one is closed, or the
   * new one when all are busy), the time to send a request's headers (default
   * 30 s) and its whole body (default 30 s: a body trickled a byte at a time is cut there with a
   * 408), and the idle time of a kept-alive connection (default 5 s).
   */
  limits?: Partial<HttpServerLimits>;
}

/** The reference server's {@link ReferenceServerOptions.limits} when none are given. */
export const DEFAULT_SERVER_LIMITS: HttpServerLimits = {
  maxConnections: 1024,
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
};

/** Whether a peer address is on the loopback range (127.0.0.0/8 or ::1, also IPv4-mapped). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function keyOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') return auth.replace(/^Bearer\s+/i, '');
  const legacy = req.headers['svc-authorization'];
  return typeof legacy === 'string' ? legacy : undefined;
}

/** The `Host` headers and `Origin`s a server answers as its own (set once it listens). */
export interface OwnNames {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

/** The own names of a server bound to `host:port`: the loopback names and `host`, with the port. */
export function ownNames(host: string, port: number): OwnNames {
  const hosts = allowedHostHeaders(host, port);
  return { hosts, origins: new Set([...hosts].map((name) => `http://${name}`)) };
}

/**
 * Builds the request handler from modules; separate from listening so it can be tested alone.
 * `own` gives the names the server answers; a request under any other `Host` is 403.
 */
export function createHandler(state: ServerState, modules: readonly ServerModule[], own: () => OwnNames) {
  const router = new Router();
  for (const module of modules) router.add(...module.routes);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const requestId = state.nextRequestId();
    res.setHeader('request-id', requestId);
    let url: URL | undefined;
    let isDev = false;
    try {
      url = parseRequestTarget(req.url);
      isDev = isDevPath(url.pathname);
      if (!isAllowedHost(req.headers.host, own().hosts)) {
        throw new HttpProblem(403, 'Host not served: use the URL this server printed (DNS-rebinding guard)');
      }
      if (isDev && !isLoopback(req.socket.remoteAddress)) {
        throw new HttpProblem(403, 'The admin API is served on loopback only');
      }
      const method = req.method ?? 'GET';
      if (method === 'OPTIONS' && answerPreflight(req, res, router.routesFor(url.pathname))) return;
      const { route, params } = router.match(method, url.pathname);
      if (isDev) {
        checkDevMutation(req, route, own().origins);
        applyLoopbackCors(req, res, route);
      }
      const routeName = `${route.method} ${route.pattern}`;
      state.stats.requestsByRoute[routeName] = (state.stats.requestsByRoute[routeName] ?? 0) + 1;
      if (!isDev) {
        const limited = state.rateLimit.take();
        if (limited) throw limited;
        const fault = state.faults.next();
        if (fault.kind === 'reset-before') {
          req.socket.destroy();
          return;
        }
        if (fault.kind === 'reject') throw fault.problem;
        applyResponseFault(res, fault);
      }
      const principal =
        route.auth && !route.auth.custom
          ? authenticate(req, state.principals, route.auth.api, route.auth.feature)
          : undefined;
      const ctx: RouteContext = {
        req,
        res,
        params,
        query: url.searchParams,
        principal: principal as RouteContext['principal'],
        requestId,
      };
      await route.handle(ctx);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
      } else if (error instanceof HttpProblem) {
        sendProblem(res, error);
      } else {
        sendProblem(res, new HttpProblem(500, 'Internal error'));
      }
    } finally {
      if (!isDev) {
        logRequest(state, req, url, res.statusCode, requestId);
        publishRequest(state, req, url, res.statusCode, started, requestId);
      }
    }
  };
}

function logRequest(
  state: ServerState,
  req: IncomingMessage,
  url: URL | undefined,
  status: number,
  requestId: string,
): void {
  const key = keyOf(req);
  state.requestLog.push({
    at: state.nowIso(),
    method: req.method ?? 'GET',
    path: url?.pathname ?? '(unparsable target)',
    status,
    requestId,
    key: key ? maskKey(key) : undefined,
  });
}

/** Tells the console about one API request (its own and the admin's requests are left out). */
function publishRequest(
  state: ServerState,
  req: IncomingMessage,
  url: URL | undefined,
  status: number,
  started: number,
  requestId: string,
): void {
  const key = keyOf(req);
  let path = url?.pathname ?? req.url ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // Shown as sent.
  }
  state.events.publish('request', {
    method: (req.method ?? 'GET').slice(0, 16),
    path,
    status,
    latencyMs: Math.round((performance.now() - started) * 10) / 10,
    requestId,
    key: key ? maskKey(key) : undefined,
    principal: key === undefined ? undefined : principalLabel(state.principals.get(key)),
  });
}

function principalLabel(principal: Principal | undefined): string {
  if (!principal) return 'unknown key';
  const flags = [principal.locked && 'locked', principal.expired && 'expired'].filter(Boolean);
  return `${principal.kind} ${principal.ownerId}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

/** A running reference server. */
export interface ListeningServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  host: string;
  port: number;
  state: ServerState;
  close(): Promise<void>;
}

/** Listens with the given modules; used by `createReferenceServer`. */
export async function listen(
  state: ServerState,
  modules: readonly ServerModule[],
  options: ReferenceServerOptions,
): Promise<ListeningServer> {
  let names: OwnNames = { hosts: new Set(), origins: new Set() };
  const handler = createHandler(state, modules, () => names);
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const server = createServer(httpServerOptions(limits), (req, res) => {
    // The handler answers every error itself; this is the last guard, so a bug in a request can
    // never become an unhandled rejection that stops the process.
    handler(req, res).catch(() => res.destroy());
  });
  limitHttpServer(server, limits);
  const host = options.host ?? '127.0.0.1';
  const { port, baseUrl } = await listenHttp(server, host, options.port ?? 0);
  names = ownNames(host, port);
  return {
    url: baseUrl,
    host,
    port,
    state,
    close: () => {
      for (const module of modules) module.close?.();
      return closeHttp(server);
    },
  };
}

export { ServerState };
