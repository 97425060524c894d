import type { Agent, IncomingMessage, request as send } from 'node:http';
import { isAbortLike, toRequestFailure } from '../../core/transport/network-errors.js';
import { caOption } from '../../core/transport/pem.js';
import { finishResponse } from '../../core/transport/read-body.js';
import type { Transport, TransportRequest, TransportResponse } from '../../core/transport/types.js';
import { transportLoadError } from './load-error.js';
import { httpToTlsPort } from './tls-probe.js';
import { trustedCertificates } from './trust.js';

/** Options of the `node:http` transport. */
export interface NodeHttpTransportOptions {
  /** Sockets per origin. Default 64. */
  connections?: number;
  /** Idle keep-alive time, ms; kept below common server defaults (5 s) to avoid reusing a closing socket. Default 4000. */
  keepAliveTimeoutMs?: number;
  /** PEM text of CA certificates trusted besides Node's own roots (never instead of them). Default: none, Node's set. */
  ca?: string | readonly string[] | undefined;
}

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
  // Node's roots plus the client's `ca`, for the https agent (computed on its first use).
  const extraCa = caOption(options.ca);
  const tlsOptions = () => {
    const ca = trustedCertificates(extraCa);
    return ca ? { ca } : {};
  };
  // Loaded on first use, per scheme (node:https brings TLS): a client that never reads a bulk page
  // never loads either, and runtimes without node:http are unaffected until then.
  type Client = { agent: Agent; send: typeof send };
  const clients: Partial<Record<'http:' | 'https:', Promise<Client>>> = {};
  const load = (scheme: 'http:' | 'https:') =>
    (clients[scheme] ??= (scheme === 'https:' ? import('node:https') : import('node:http'))
      .then((m) => ({
        agent: new m.Agent(scheme === 'https:' ? { ...agentOptions, ...tlsOptions() } : agentOptions),
        send: m.request as typeof send,
      }))
      .catch((error: unknown) => {
        delete clients[scheme];
        throw transportLoadError('node:http', error);
      }));
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const url = new URL(req.url);
      const host = url.host;
      const { agent, send } = await load(url.protocol === 'https:' ? 'https:' : 'http:');
      const headers: Record<string, string> = { ...req.headers };
      const body = req.bodyBytes ?? req.body;
      if (body !== undefined)
        headers['content-length'] = String(
          typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength,
        );
      let res: IncomingMessage;
      try {
        res = await new Promise<IncomingMessage>((resolve, reject) => {
          const outgoing = send(url, { method: req.method, headers, signal: req.signal, agent });
          outgoing.once('response', (incoming: IncomingMessage) => {
            // The answer started: from now the attempt's timeout counts silence between chunks.
            req.watch?.heard();
            resolve(incoming);
          });
          outgoing.once('error', reject);
          outgoing.end(body);
        });
      } catch (error) {
        if (isAbortLike(error)) throw error;
        throw (await httpToTlsPort(error, req.url, host)) ?? toRequestFailure(error, host);
      }
      // A body cut short of its Content-Length makes the body stream fail (ECONNRESET): a ConnectionError.
      return finishResponse(
        req,
        { status: res.statusCode ?? 0, headers: res.headers, body: res, destroy: () => res.destroy() },
        () => host,
      );
    },
    close: async () => {
      for (const client of Object.values(clients)) (await client.catch(() => undefined))?.agent.destroy();
    },
  };
}
