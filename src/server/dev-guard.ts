import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackOrigin } from '../core/host-guard.js';
import { HttpProblem } from './problem.js';
import type { Route } from './router.js';

/** Whether `pathname` is a dev-server route (admin API, console, widget): they all start with `/__`. */
export function isDevPath(pathname: string): boolean {
  return pathname.startsWith('/__');
}

/** Methods that change nothing; every other method on a dev route is a mutation. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * Refuses a mutation of a dev route that a web page could send: an `Origin` other than the
 * server's own (`ownOrigins`, or a loopback page for a `cors: 'loopback'` route) is 403; a body
 * that is not `Content-Type: application/json` is 415 (a page can send `text/plain` cross-origin
 * without a preflight, never JSON). Safe methods pass.
 */
export function checkDevMutation(req: IncomingMessage, route: Route, ownOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const origin = req.headers.origin;
  if (origin !== undefined && !ownOrigins.has(origin.toLowerCase())) {
    if (!(route.cors === 'loopback' && isLoopbackOrigin(origin))) {
      throw new HttpProblem(403, "Cross-origin request refused: only the server's own pages may change it");
    }
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new HttpProblem(415, 'Dev-server changes need Content-Type: application/json', undefined, {
      accept: 'application/json',
    });
  }
}

/** Adds the CORS headers of a `cors: 'loopback'` route for a loopback page's request. */
export function applyLoopbackCors(req: IncomingMessage, res: ServerResponse, route: Route): void {
  const origin = req.headers.origin;
  if (route.cors !== 'loopback' || !isLoopbackOrigin(origin)) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
}

/**
 * Answers a CORS preflight (`OPTIONS`) for the `cors: 'loopback'` routes of a path: 204 with the
 * CORS headers for a loopback page, 403 for any other origin. False when no such route matches,
 * so the router answers (405).
 */
export function answerPreflight(
  req: IncomingMessage,
  res: ServerResponse,
  routes: readonly Route[],
): boolean {
  const methods = routes.filter((route) => route.cors === 'loopback').map((route) => route.method);
  if (methods.length === 0) return false;
  const origin = req.headers.origin;
  if (!isLoopbackOrigin(origin)) throw new HttpProblem(403, 'Only pages served from loopback may call this');
  res.writeHead(204, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': methods.join(', '),
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
    vary: 'Origin',
    'content-length': 0,
  });
  res.end();
  return true;
}
