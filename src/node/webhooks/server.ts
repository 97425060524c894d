import type { IncomingMessage, ServerResponse } from 'node:http';
import { allowedHostHeaders, isAllowedHost } from '../../core/host-guard.js';
import { readNodeBody } from '../../core/request-body.js';
import {
  parseWebhookEvent,
  type TaxWebhookEvent,
  WebhookPayloadError,
} from '../../tax/webhooks/parse-event.js';
import { closeHttp, serveHttp } from '../http/listen.js';
import type { WebhookListener, WebhookListenerOptions } from './listener-types.js';
import { WebhookRejection } from './rejection.js';

// The listener's server, loaded by `listenForWebhooks` when it is called (listen.ts):
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

/** Starts the listener `listenForWebhooks` documents. */
export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
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
  // Senders keep their connections alive and reuse them, so a run of any size needs few sockets;
  // the limits stop a sender that does not (or one that stalls) from exhausting descriptors.
  const limits = {
    maxConnections: options.maxConnections ?? 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5000,
  };
  const host = options.host ?? '127.0.0.1';
  const { server, baseUrl, port } = await serveHttp(
    'listenForWebhooks',
    limits,
    handle,
    host,
    options.port ?? 0,
  );
  hosts = allowedHostHeaders(host, port);
  return { url: `${baseUrl}/${token}`, close: () => closeHttp(server) };
}
