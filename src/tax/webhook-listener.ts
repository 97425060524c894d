import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeHttp, listenHttp } from '../core/listen.js';
import { nodeBuiltin } from '../core/node-builtin.js';
import { parseWebhookEvent, type TaxWebhookEvent, WebhookPayloadError } from './webhooks.js';

/** Options of {@link listenForWebhooks}. */
export interface WebhookListenerOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Secret path segment; requests to any other path get 404. Default: 32 random hex characters. */
  pathToken?: string;
  /** Largest accepted body; larger requests get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Most connections open at once; further ones are closed on arrival (a sender retries them).
   * Keeps the listener's descriptors bounded whatever a sender does. Default 64.
   */
  maxConnections?: number;
  /**
   * Called for each accepted event, with the body exactly as received (as text, and as bytes with
   * its content type in `delivery`). A {@link WebhookRejection} it throws is answered with its
   * status (so the sender retries); any other error with 500.
   */
  onEvent(event: TaxWebhookEvent, rawBody: string, delivery: WebhookDelivery): void | Promise<void>;
}

/** One received delivery, as it arrived. */
export interface WebhookDelivery {
  /** The body's bytes, unchanged. */
  bytes: Buffer;
  /** The request's `content-type` header, if any. */
  contentType: string | undefined;
}

/** Thrown by an `onEvent` handler to answer the sender with `status` (e.g. 502 when a forward failed). */
export class WebhookRejection extends Error {
  override name = 'WebhookRejection';

  constructor(
    /** The HTTP status answered, 4xx or 5xx. */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A running webhook listener. */
export interface WebhookListener {
  /** The full URL to register as the webhook endpoint, including the path token. */
  url: string;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** `bytes` random bytes from Web Crypto, as hex. */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * Receives webhook events on a local port. Only POSTs to the random path token are accepted and
 * bodies are bounded. The service does not specify webhook signing, so an event proves nothing by
 * itself: confirm it by fetching its result from the API (`client.tax.getResult`).
 */
export async function listenForWebhooks(options: WebhookListenerOptions): Promise<WebhookListener> {
  const { createServer } = nodeBuiltin('node:http', 'listenForWebhooks');
  const token = options.pathToken ?? randomHex(16);
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const server = createServer(async (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== `/${token}`) return reply(res, 404, 'not found');
    if (req.method !== 'POST') return reply(res, 405, 'POST only');
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      res.setHeader('connection', 'close');
      return reply(res, 413, 'body too large');
    }
    let bytes: Buffer | undefined;
    try {
      bytes = await readBody(req, limit);
    } catch {
      return;
    }
    if (bytes === undefined) {
      res.setHeader('connection', 'close');
      return reply(res, 413, 'body too large');
    }
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
  });
  // Senders keep their connections alive and reuse them, so a run of any size needs few sockets;
  // the limits below stop a sender that does not (or one that stalls) from exhausting descriptors.
  server.maxConnections = options.maxConnections ?? 64;
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const { baseUrl } = await listenHttp(server, options.host ?? '127.0.0.1', options.port ?? 0);
  return { url: `${baseUrl}/${token}`, close: () => closeHttp(server) };
}
