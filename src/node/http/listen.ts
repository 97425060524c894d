import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeBuiltin } from '../fs/builtin.js';
import { type HttpServerLimits, httpServerOptions, limitHttpServer } from './limits.js';

/** Starts `server` on host:port (0 picks a free port); resolves with the bound port and base URL. */
export async function listenHttp(
  server: Server,
  host: string,
  port: number,
): Promise<{ port: number; baseUrl: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}

/** Stops accepting, drops open connections, resolves when closed. */
export function closeHttp(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * A local listener of the product (a webhook listener, the audit receiver) started on host:port
 * within `limits`: a request whose handler rejects is dropped (its socket destroyed), never an
 * unhandled rejection that stops the process. `caller` names the API in the error of a runtime
 * without `node:http`.
 */
export async function serveHttp(
  caller: string,
  limits: HttpServerLimits,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  host: string,
  port: number,
): Promise<{ server: Server; port: number; baseUrl: string }> {
  const { createServer } = nodeBuiltin('node:http', caller);
  const server = createServer(httpServerOptions(limits), (req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  limitHttpServer(server, limits);
  return { server, ...(await listenHttp(server, host, port)) };
}
