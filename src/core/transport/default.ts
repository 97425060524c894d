import { createNodeHttpTransport } from './node-http.js';
import type { Transport } from './types.js';
import { createUndiciTransport, type UndiciTransportOptions } from './undici.js';

/**
 * The transport a client uses when given none: undici for API calls (the most requests per second
 * on Node), and Node's native `http` client for bulk page reads, the requests that hand in a
 * reusable `bodyBuffer` (audit export pages), where it reads the body with less CPU and memory.
 * Each is loaded on its first use, so an export never loads undici.
 */
export function createDefaultTransport(options: UndiciTransportOptions = {}): Transport {
  const calls = createUndiciTransport(options);
  let bulk: Transport | undefined;
  return {
    request(req) {
      if (req.bodyBuffer === undefined) return calls.request(req);
      bulk ??= createNodeHttpTransport({
        connections: options.connections,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs,
      });
      return bulk.request(req);
    },
    close: async () => {
      await Promise.all([calls.close?.(), bulk?.close?.()]);
    },
  };
}
