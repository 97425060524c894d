import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { allowedHostHeaders, isAllowedHost } from '../core/host-guard.js';
import { nodeBuiltin } from '../core/node-builtin.js';
import { readNodeBody } from '../core/request-body.js';
import { closeHttp, listenHttp } from '../node/listen.js';
import type { WebhookListener, WebhookListenerOptions } from './webhook-listener-options.js';
import { WebhookRejection } from './webhook-rejection.js';
import { parseWebhookEvent, type TaxWebhookEvent, WebhookPayloadError } from './webhooks.js';

// The listener's server, loaded by `listenForWebhooks` when it is called (webhook-listener.ts):
// importing the root entry does not compile it.

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

/** `bytes` random bytes from Web Crypto, as hex. */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * Keeps at most `max` connections open: a connection past it closes the oldest idle one (no
 * request in progress), or is itself closed when every open one is busy.
 */
function boundConnections(server: Server, max: number): void {
  const open = new Set<Socket>();
  const busy = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
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

/** Starts the listener `listenForWebhooks` documents. */
export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const { createServer } = nodeBuiltin('node:http', 'listenForWebhooks');
  const token = options.pathToken ?? randomHex(16);
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  let hosts: ReadonlySet<string> = new Set();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding: a page whose name now resolves to 127.0.0.1 sends its own name as Host.
    if (!isAllowedHost(req.headers.host, hosts)) return reply(res, 403, 'host not served');
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== `/${token}`) return reply(res, 404, 'not found');
    if (req.method !== 'POST') return reply(res, 405, 'POST only');
    // Counted on the bytes received (Content-Length or chunked): past the limit nothing more is
    // read, and the connection closes once the 413 is sent.
    const read = await readNodeBody(req, limit);
    if (!read.ok && read.reason === 'too-large') {
      res.setHeader('connection', 'close');
      return reply(res, 413, 'body too large');
    }
    if (!read.ok) return;
    const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
    const body = bytes.toString('utf8');
    let event: TaxWebhookEvent;
    try {
      event = parseWebhookEvent(body);
    } catch (error) {
      return reply(res, 400, error instanceof WebhookPayloadError ? error.message : 'bad request');
    }
    try {
      await options.onEvent(event, body, { bytes, contentType: req.headers['content-type'] });
      reply(res, 200, 'ok');
    } catch (error) {
      if (error instanceof WebhookRejection) reply(res, error.status, error.message);
      else reply(res, 500, 'handler failed');
    }
  };
  // The last guard: no request can become an unhandled rejection that stops the process.
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  // Senders keep their connections alive and reuse them, so a run of any size needs few sockets;
  // the limits below stop a sender that does not (or one that stalls) from exhausting descriptors.
  boundConnections(server, options.maxConnections ?? 64);
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const host = options.host ?? '127.0.0.1';
  const { baseUrl, port } = await listenHttp(server, host, options.port ?? 0);
  hosts = allowedHostHeaders(host, port);
  return { url: `${baseUrl}/${token}`, close: () => closeHttp(server) };
}
