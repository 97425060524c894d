import type { Agent, IncomingMessage, request as send } from 'node:http';
import { SvcError } from '../errors/svc-error.js';
import { isAbortLike, toConnectionError } from './network-errors.js';
import { announcedLength, announcedTooLarge, capFor, readLimited, tooLarge } from './read-body.js';
import type { Transport, TransportRequest, TransportResponse } from './types.js';

/** Options of the `node:http` transport. */
export interface NodeHttpTransportOptions {
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Idle keep-alive time, ms; kept below common server defaults (5 s) to avoid reusing a closing socket. Default 4000. */
  keepAliveTimeoutMs?: number;
}

const decoder = new TextDecoder();

/**
 * Node's own `http`/`https` client on a keep-alive Agent. Its parser is native, so reading a large
 * body costs less CPU and memory than undici's (a 700 KB audit page: about 2.4x less CPU, and no
 * WebAssembly parser to compile); undici sends small requests faster. The default transport uses
 * this one for bulk page reads only (see `createDefaultTransport`). Never follows redirects and,
 * like undici's `request`, does not decode `Content-Encoding`, so the byte cap counts what arrives.
 */
export function createNodeHttpTransport(options: NodeHttpTransportOptions = {}): Transport {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.connections ?? 64,
    timeout: options.keepAliveTimeoutMs ?? 4000,
    scheduling: 'lifo' as const,
  };
  // Loaded on first use, per scheme (node:https brings TLS): a client that never reads a bulk page
  // never loads either, and runtimes without node:http are unaffected until then.
  type Client = { agent: Agent; send: typeof send };
  const clients: Partial<Record<'http:' | 'https:', Promise<Client>>> = {};
  const load = (scheme: 'http:' | 'https:') =>
    (clients[scheme] ??= (scheme === 'https:' ? import('node:https') : import('node:http')).then((m) => ({
      agent: new m.Agent(agentOptions),
      send: m.request as typeof send,
    })));
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const url = new URL(req.url);
      const host = url.host;
      const { agent, send } = await load(url.protocol === 'https:' ? 'https:' : 'http:');
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      let res: IncomingMessage;
      try {
        res = await new Promise<IncomingMessage>((resolve, reject) => {
          const outgoing = send(url, { method: req.method, headers, signal: req.signal, agent });
          outgoing.once('response', resolve);
          outgoing.once('error', reject);
          outgoing.end(req.body);
        });
      } catch (error) {
        if (isAbortLike(error)) throw error;
        throw toConnectionError(error, host);
      }
      const status = res.statusCode ?? 0;
      const responseHeaders: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const limit = capFor(status, req);
      if (announcedTooLarge(responseHeaders['content-length'], limit)) {
        res.destroy();
        throw tooLarge(limit, status, host);
      }
      const success = status >= 200 && status < 300 && req.responseType === 'bytes';
      let bytes: Uint8Array;
      try {
        const chunks = res[Symbol.asyncIterator]();
        bytes = await readLimited(
          async () => {
            const step = await chunks.next();
            return step.done ? undefined : (step.value as Uint8Array);
          },
          () => res.destroy(),
          limit,
          () => tooLarge(limit, status, host),
          announcedLength(responseHeaders['content-length']),
          success && req.bodyBuffer ? req.bodyBuffer : undefined,
        );
      } catch (error) {
        if (error instanceof SvcError || isAbortLike(error)) throw error;
        throw toConnectionError(error, host);
      }
      // A body cut short (the connection closed before Content-Length bytes) is an error, not a page.
      if (!res.complete) throw toConnectionError(new Error('response ended early'), host);
      if (req.responseType === 'bytes') return { status, headers: responseHeaders, body: '', bytes };
      return { status, headers: responseHeaders, body: decoder.decode(bytes) };
    },
    close: async () => {
      for (const client of Object.values(clients)) (await client).agent.destroy();
    },
  };
}
