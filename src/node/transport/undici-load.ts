import type { Agent, Dispatcher, Pool, ProxyAgent } from 'undici';

/** What the undici transport uses of undici: its keep-alive `Agent`, `ProxyAgent`, `Pool` and `request` on a dispatcher. */
export interface UndiciParts {
  Agent: typeof Agent;
  /** The proxy agent (one per proxy URL), for requests a proxy setting routes through a proxy. */
  ProxyAgent?: typeof ProxyAgent;
  /** The connection pool the proxy agent's connections to a proxy use. */
  Pool?: typeof Pool;
  /** undici's `Dispatcher.request`, called with the agent as `this`: origin and path given apart. */
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

/**
 * Loads undici through its public entry, at the first request (not when the package loads: code
 * that passes its own `fetch`, or uses only the offline helpers, never pays for undici). Rejects
 * only when undici cannot load at all (the transport makes that a configuration error).
 */
export async function loadUndiciParts(): Promise<UndiciParts> {
  const undici = await import('undici');
  return {
    Agent: undici.Agent,
    ProxyAgent: undici.ProxyAgent,
    Pool: undici.Pool,
    request: undici.Agent.prototype.request as UndiciParts['request'],
  };
}
