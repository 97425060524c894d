import {
  createServer as createHttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

// What the SIEM stand-ins (bulk-standin.ts, hec-standin.ts) share: a loopback listener, a body
// reader with a size limit, seeded draws and JSON answers. Node built-ins only, so a plain Node
// script (the bench, through tsx) can start a stand-in.

/** A PEM key and certificate: with them a stand-in serves https instead of http. */
export interface StandInTls {
  key: string;
  cert: string;
}

/** A listening stand-in. */
export interface StandInListener {
  /** `http://127.0.0.1:PORT`, or `https://localhost:PORT` with TLS (the name test certificates hold). */
  url: string;
  port: number;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0, over http or (with `tls`) https. */
export async function listenStandIn(handler: RequestListener, tls?: StandInTls): Promise<StandInListener> {
  const server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request body: its bytes, or `undefined` when it was longer than the limit. */
export interface ReadBody {
  body: Buffer | undefined;
  bytes: number;
}

/**
 * Reads a request body whole. Past `limit` bytes it keeps nothing but still reads to the end, so
 * the client, which may still be sending, gets the answer instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => resolve({ body: bytes <= limit ? Buffer.concat(chunks, bytes) : undefined, bytes }));
    req.on('error', reject);
  });
}

/**
 * A number in [0, 1) fixed by `seed` and `parts` (FNV-1a over the parts, then murmur3's
 * finaliser): the same inputs draw the same number in any order of calls, so a fault can belong
 * to a document id, or to an id and an attempt, rather than to the order requests came in.
 */
export function draw(seed: number, ...parts: (string | number)[]): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (const part of parts) {
    const text = String(part);
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    // A separator, so ('ab', 'c') and ('a', 'bc') draw apart.
    hash = Math.imul(hash ^ 0xff, 0x01000193);
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) / 4294967296;
}

/** Answers `status` with `body` (a string as is, anything else as JSON) and a Content-Length. */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders,
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
