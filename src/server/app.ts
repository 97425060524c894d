import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeHttp, listenHttp } from '../core/listen.js';
import { maskKey } from '../core/redact.js';
import { authenticate } from './auth.js';
import type { Clock } from './clock.js';
import { applyResponseFault } from './faults.js';
import type { ServerModule } from './module.js';
import { HttpProblem, sendProblem } from './problem.js';
import { type RouteContext, Router } from './router.js';
import { MAX_LOG_ENTRIES, ServerState } from './state.js';
import type { WebhookSenderOptions } from './tax/webhook-sender.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Clock to use; default wall time that the admin API can move. */
  clock?: Clock;
  /**
   * Webhook delivery: connections per endpoint, queue bound, retry schedule (`retryDelaysMs`,
   * default 1 s, 5 s, 30 s, 2 min, 10 min), attempt timeout, records kept, retry timer.
   */
  webhooks?: WebhookSenderOptions;
}

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

/** Builds the request handler from modules; separate from listening so it can be tested alone. */
export function createHandler(state: ServerState, modules: readonly ServerModule[]) {
  const router = new Router();
  for (const module of modules) router.add(...module.routes);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = state.nextRequestId();
    res.setHeader('request-id', requestId);
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const isAdmin = url.pathname.startsWith('/__admin');
    let routeName = `${req.method} ${url.pathname}`;
    try {
      if (isAdmin && !isLoopback(req.socket.remoteAddress)) {
        throw new HttpProblem(403, 'The admin API is served on loopback only');
      }
      const { route, params } = router.match(req.method ?? 'GET', url.pathname);
      routeName = `${route.method} ${route.pattern}`;
      state.stats.requestsByRoute[routeName] = (state.stats.requestsByRoute[routeName] ?? 0) + 1;
      if (!isAdmin) {
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
      if (!isAdmin) {
        const key = keyOf(req);
        state.requestLog.push({
          at: state.nowIso(),
          method: req.method ?? 'GET',
          path: url.pathname,
          status: res.statusCode,
          requestId,
          key: key ? maskKey(key) : undefined,
        });
        if (state.requestLog.length > MAX_LOG_ENTRIES)
          state.requestLog.splice(0, state.requestLog.length - MAX_LOG_ENTRIES);
      }
    }
  };
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
  const handler = createHandler(state, modules);
  const server = createServer((req, res) => {
    void handler(req, res);
  });
  server.keepAliveTimeout = 5000;
  const host = options.host ?? '127.0.0.1';
  const { port, baseUrl } = await listenHttp(server, host, options.port ?? 0);
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
