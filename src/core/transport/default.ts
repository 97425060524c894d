import { SvcError } from '../errors/error-classes.js';
import type { ProxyOption } from '../proxy-rules.js';
import { currentRuntime, type RuntimeName } from '../runtime.js';
import { createFetchTransport, globalFetch } from './fetch.js';
import type { Transport } from './types.js';

/** What a client hands the transport it makes when given none: its pool size and network settings. */
export interface DefaultTransportOptions {
  /** Sockets per origin (Node's transports). Default 64. */
  connections?: number | undefined;
  /** The proxy of each request, as `SvcClientOptions.proxy` takes it. Default: none. */
  proxy?: ProxyOption | undefined;
  /** PEM text of CA certificates trusted besides the runtime's own. Default: none. */
  ca?: string | readonly string[] | undefined;
}

/** Makes a client's transport on Node; the package's Node builds provide it (src/node/transport/provide.ts). */
export type NodeTransportFactory = (options: DefaultTransportOptions) => Transport;

let nodeTransports: NodeTransportFactory | undefined;

/**
 * Gives clients made without a transport Node's transports (undici, node:http) when they run on
 * Node. The Node build of the `svc-sdk` entry and the CLI call it when they load; the builds for
 * other runtimes never do, so their clients use the global `fetch` and never reach Node's modules.
 */
export function provideNodeTransports(factory: NodeTransportFactory): void {
  nodeTransports = factory;
}

/** Whether a client made here on `runtime` without a transport gets Node's transports (proxy and CA need them). */
export function hasNodeTransports(runtime: RuntimeName = currentRuntime().name): boolean {
  return runtime === 'node' && nodeTransports !== undefined;
}

/**
 * The transport of a client given none: Node's transports on Node where a Node build provided
 * them ({@link provideNodeTransports}), else the global `fetch` (Bun, Deno, workerd, edge
 * runtimes, browsers).
 *
 * @throws {SvcError} code `config` when the runtime has no global `fetch` (pass `fetch` or `transport`).
 */
export function createClientTransport(
  options: DefaultTransportOptions = {},
  runtime: RuntimeName = currentRuntime().name,
): Transport {
  if (runtime === 'node' && nodeTransports) return nodeTransports(options);
  if (typeof globalThis.fetch !== 'function') {
    throw new SvcError(
      `This runtime (${runtime}) has no global fetch: pass the fetch or transport option`,
      'config',
    );
  }
  return createFetchTransport(globalFetch);
}
