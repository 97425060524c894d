import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What a local HTTP server of the product (the reference server, a webhook listener) allows a client. */
export interface HttpServerLimits {
  /** Connections open at once; past it the oldest idle one is closed, or the new one when all are busy. */
  maxConnections: number;
  /** Most time from a connection's first byte to the end of the request's headers, in ms. */
  headersTimeoutMs: number;
  /** Most time to receive a whole request (headers and body), in ms: a body trickled byte by byte ends here. */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection stays open, in ms. */
  keepAliveTimeoutMs: number;
}

/**
 * The `createServer` options for `limits`. Node checks the two timeouts on a timer
 * (`connectionsCheckingInterval`, 30 s by default, so a 30 s timeout could take up to 60 s): it
 * runs here at a tenth of the shorter one, so a request is cut within about 10 % of its limit.
 */
export function httpServerOptions(limits: HttpServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(
      10,
      Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10),
    ),
  };
}

/**
 * Applies the connection bound and the keep-alive timeout of `limits` to a server made with
 * {@link httpServerOptions}: a connection past `maxConnections` closes the oldest idle one (no
 * request in progress), or is itself closed when every open one is busy.
 */
export function limitHttpServer(server: Server, limits: HttpServerLimits): void {
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const open = new Set<Socket>();
  const busy = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      let idle: Socket | undefined;
      for (const candidate of open) {
        if (!busy.has(candidate)) {
          idle = candidate;
          break;
        }
      }
      if (!idle) {
        socket.destroy();
        return;
      }
      open.delete(idle);
      idle.destroy();
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.add(socket);
    res.once('close', () => busy.delete(socket));
  });
}
