import { currentRuntime, type RuntimeName } from '../../core/runtime.js';
import { ATTEMPT_ABORTER, type AttemptAbortAware } from '../../core/transport/attempt-abort.js';
import { createClientTransport } from '../../core/transport/default.js';
import type { Transport, TransportRequest } from '../../core/transport/types.js';
import { createNodeHttpTransport } from './node-http.js';
import { createUndiciTransport, type UndiciTransportOptions } from './undici.js';

/**
 * The transport a client uses when given none, chosen once from the runtime (like openai-node's
 * shims):
 * - Node: undici for API calls (about 2x the requests per second of the global `fetch` there),
 *   and Node's native `http` client for bulk page reads, the requests that hand in a reusable
 *   `bodyBuffer` (audit export pages), where it reads the body with less CPU and memory. Each is
 *   loaded on its first use, so an export never loads undici. With `proxy`, every request goes
 *   through undici (its `ProxyAgent` for the proxied origins).
 * - Bun, Deno, workerd, Vercel's edge-runtime, browsers and anything else: the global `fetch`.
 *   undici is never loaded there (in Deno it reads an environment variable when it loads, which
 *   `--allow-net` alone refuses; Bun's shim of it cannot close an Agent).
 *
 * @throws {SvcError} code `config` when the runtime has no global `fetch` (pass `fetch` or `transport`).
 */
export function createDefaultTransport(
  options: UndiciTransportOptions = {},
  runtime: RuntimeName = currentRuntime().name,
): Transport {
  // Elsewhere the Web-safe choice: the global fetch (it never calls back here off Node).
  if (runtime !== 'node') return createClientTransport(options, runtime);
  const calls: Transport & AttemptAbortAware = createUndiciTransport(options);
  let bulk: Transport | undefined;
  // With a proxy setting, bulk reads go through undici too: one proxy client (undici's
  // ProxyAgent), one NO_PROXY rule and one set of proxy errors for every request.
  const viaUndici = options.proxy ? () => true : (req: TransportRequest) => req.bodyBuffer === undefined;
  const transport: Transport & AttemptAbortAware = {
    request(req) {
      if (viaUndici(req)) return calls.request(req);
      bulk ??= createNodeHttpTransport({
        connections: options.connections,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs,
        ca: options.ca,
      });
      return bulk.request(req);
    },
    // undici's requests end through its own abort; node:http gets a real AbortSignal.
    [ATTEMPT_ABORTER]: (req) => (viaUndici(req) ? calls[ATTEMPT_ABORTER]?.(req) : undefined),
    close: async () => {
      await Promise.all([calls.close?.(), bulk?.close?.()]);
    },
  };
  return transport;
}
