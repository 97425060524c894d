import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as z from 'zod/mini';
import type { ApiName, Feature } from './auth.js';
import type { Principal } from './fixtures.js';
import { HttpProblem } from './problem.js';

/** What a handler gets. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Set when the route declares `auth`. */
  principal: Principal;
  requestId: string;
}

/** What `GET /__admin` and docs/reference-server.md say about a dev-server route. */
export interface RouteDoc {
  /** One line: what the route does. */
  summary: string;
  /** Schema of the JSON body; listed as JSON Schema. Absent when the route takes none. */
  body?: z.core.$ZodType;
  /** Query parameters, in words, e.g. `url=<registered URL>`. */
  query?: string;
  /** An example body that the route accepts. */
  example?: unknown;
  /** The path the example calls, when the pattern has parameters or takes a query (`/__admin/providers/VIES`). */
  examplePath?: string;
  /** What a success answers, e.g. `201 {verificationId, token, accessToken}`. */
  returns: string;
}

/** One endpoint. */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with `:name` parameters, e.g. `/taxvalidation/v1/schedules/:scheduleId`. */
  pattern: string;
  /** Authentication the app applies before the handler; absent for admin routes. */
  auth?: { api: ApiName; feature?: Feature; custom?: boolean };
  /** Documentation of a dev-server route (`/__...`); every admin route has one. */
  doc?: RouteDoc;
  /**
   * Cross-origin access. Default none: a mutation of a dev route (`/__...`) needs
   * `Content-Type: application/json` and, when `Origin` is sent, the server's own origin.
   * `loopback`: pages served from `http://localhost:*`, `http://127.0.0.1:*` or `http://[::1]:*`
   * may call it too (CORS, preflight answered); any other origin gets 403.
   */
  cors?: 'loopback';
  handle(ctx: RouteContext): unknown;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

/** Matches method and path to a route; 404 for an unknown path, 405 for a known path with another method. */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...routes: Route[]): void {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      this.routes.push({ ...route, regex: new RegExp(`^${source}/?$`), names });
    }
  }

  /** Every route, in the order added. */
  list(): readonly Route[] {
    return this.routes;
  }

  /** The routes whose pattern matches `pathname`, whatever their method. */
  routesFor(pathname: string): Route[] {
    return this.routes.filter((route) => route.regex.test(pathname));
  }

  match(method: string, pathname: string): { route: Route; params: Record<string, string> } {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(pathname);
      if (!m) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        } catch {
          params[name] = m[i + 1] ?? '';
        }
      });
      return { route, params };
    }
    if (allowed.length) {
      throw new HttpProblem(405, `Method ${method} not allowed on ${pathname}`, undefined, {
        allow: allowed.join(', '),
      });
    }
    throw new HttpProblem(404, `No route for ${method} ${pathname}`);
  }
}
