import type { Dispatcher } from 'undici';
import { type ProxyRoutes, proxyFor } from '../../core/proxy-rules.js';

/** Where the requests to one origin go: the dispatcher, and the proxy it goes through (if any). */
export interface Route {
  readonly dispatcher: Dispatcher;
  /** The proxy, or `undefined` for a direct connection. */
  readonly proxy: URL | undefined;
}

/** Picks the dispatcher of each origin, decided once per origin. */
export interface Router {
  /** The route of an origin (`https://host:port`, as `URL.origin` writes it): one Map lookup once decided. */
  routeFor(origin: string): Route;
  /** Every dispatcher made so far (the direct one first), to close. */
  dispatchers(): Dispatcher[];
}

/**
 * Routes origins by {@link proxyFor} (the one proxy rule): the direct dispatcher, or one proxy
 * dispatcher per proxy URL, made on first use by `proxyDispatcher`. Without `routes` every origin
 * is direct and nothing is looked up.
 */
export function createRouter(
  direct: Dispatcher,
  routes: ProxyRoutes | undefined,
  proxyDispatcher: (proxy: URL) => Dispatcher,
): Router {
  const directRoute: Route = { dispatcher: direct, proxy: undefined };
  const byOrigin = new Map<string, Route>();
  const byProxy = new Map<string, Dispatcher>();
  return {
    routeFor(origin) {
      if (!routes) return directRoute;
      let route = byOrigin.get(origin);
      if (route === undefined) {
        const proxy = proxyFor(origin, routes);
        if (proxy === undefined) route = directRoute;
        else {
          let dispatcher = byProxy.get(proxy.href);
          if (dispatcher === undefined) {
            dispatcher = proxyDispatcher(proxy);
            byProxy.set(proxy.href, dispatcher);
          }
          route = { dispatcher, proxy };
        }
        byOrigin.set(origin, route);
      }
      return route;
    },
    dispatchers: () => [direct, ...byProxy.values()],
  };
}

/** The connection settings every dispatcher of a transport shares. */
export interface DispatcherSettings {
  /** Sockets per origin. */
  connections: number;
  /** Idle keep-alive time, ms. */
  keepAliveTimeout: number;
  /** Connect timeout, ms (to the proxy, and through it to the origin). */
  connectTimeout: number;
  /** undici's own header and body timeouts (0: none, the caller's signal bounds the wait). */
  headersTimeout: number;
  bodyTimeout: number;
  /** The certificates TLS connections trust, when not Node's defaults (see trust.ts). */
  ca: string[] | undefined;
}

/** What {@link proxyAgent} needs of undici. */
interface ProxyParts {
  ProxyAgent?: typeof import('undici').ProxyAgent;
  Pool?: typeof import('undici').Pool;
}

/**
 * The dispatchers of one transport with `settings`: a direct keep-alive `Agent` and, by
 * {@link createRouter}, a {@link proxyAgent} per proxy URL that `routes` names.
 */
export function settledRouter(
  parts: ProxyParts & { Agent: typeof import('undici').Agent },
  routes: ProxyRoutes | undefined,
  settings: DispatcherSettings,
): Router {
  const { connectTimeout, ca, ...pool } = settings;
  const direct = new parts.Agent({ ...pool, connect: { timeout: connectTimeout, ...(ca && { ca }) } });
  return createRouter(direct, routes, (proxy) => proxyAgent(parts, proxy, settings));
}

/**
 * undici's documented `ProxyAgent` for one proxy, with the transport's connection settings:
 * https origins through a CONNECT tunnel, http origins as absolute-URL requests to the proxy
 * (as curl and Node do; proxies that allow CONNECT to port 443 only still serve them). The
 * proxy URL's `user:pass@` becomes `Proxy-Authorization: Basic` (undici does this from the URL);
 * `ca` is trusted for the origin and for an https:// proxy alike.
 */
export function proxyAgent(parts: ProxyParts, proxy: URL, settings: DispatcherSettings): Dispatcher {
  const { ProxyAgent, Pool } = parts;
  if (!ProxyAgent || !Pool) throw new TypeError('this undici has no ProxyAgent');
  const tls = { timeout: settings.connectTimeout, ...(settings.ca && { ca: settings.ca }) };
  const pool = {
    connections: settings.connections,
    keepAliveTimeout: settings.keepAliveTimeout,
    headersTimeout: settings.headersTimeout,
    bodyTimeout: settings.bodyTimeout,
  };
  return new ProxyAgent({
    uri: proxy.href,
    ...pool,
    requestTls: tls,
    proxyTls: tls,
    proxyTunnel: false,
    // The pools to the proxy (absolute-URL requests) and to each tunnelled origin, with the same settings.
    factory: (origin: string | URL, options: object) => new Pool(origin, { ...pool, ...options }),
  });
}
