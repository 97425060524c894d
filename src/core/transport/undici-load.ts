import type { Agent, Dispatcher } from 'undici';

/** What the undici transport uses of undici: its keep-alive `Agent` and `request` on a dispatcher. */
export interface UndiciParts {
  Agent: typeof Agent;
  /** undici's `Dispatcher.request`, called with the agent as `this`: origin and path given apart. */
  request: (this: Agent, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** Whether undici's own modules were loaded rather than its public entry (tests look). */
  modules: boolean;
}

// undici's public entry loads all of undici (fetch, WebSocket, cookies, caches, proxies: some 100
// modules, and Node's own bundled undici through a `Headers` its cookie module reads): about 100 ms
// before the first request of a process, where the agent and `request` take about 35. The paths
// are undici's CommonJS layout since v6 (the dependency range is ^7); another layout falls back
// to the public entry, which gives the same two.

/** The default export of a CommonJS module loaded with `import()`. */
const defaultOf = (module: unknown): unknown => (module as { default?: unknown }).default;

/** How undici is loaded: its two modules, or its public entry (tests inject failures). */
export interface UndiciLoaders {
  /** The agent's module and `request`'s module, in that order. */
  modules: () => Promise<[unknown, unknown]>;
  /** The public entry. */
  entry: () => Promise<unknown>;
}

// Literal specifiers, so that bundlers of a Node server (webpack, esbuild) see what is loaded.
const DEFAULT_LOADERS: UndiciLoaders = {
  modules: () =>
    Promise.all([import('undici/lib/dispatcher/agent.js'), import('undici/lib/api/api-request.js')]),
  entry: () => import('undici'),
};

/**
 * Loads the parts of undici the transport uses, from undici's own modules where they are where
 * undici 6 and 7 keep them, else from its public entry. Rejects only when undici cannot load at
 * all (the transport makes that a configuration error).
 */
export async function loadUndiciParts(loaders: UndiciLoaders = DEFAULT_LOADERS): Promise<UndiciParts> {
  try {
    const [agent, request] = await loaders.modules();
    const AgentClass = defaultOf(agent);
    const requestFunction = defaultOf(request);
    if (typeof AgentClass === 'function' && typeof requestFunction === 'function')
      return {
        Agent: AgentClass as typeof Agent,
        request: requestFunction as UndiciParts['request'],
        modules: true,
      };
  } catch {
    // Not this layout: the public entry below.
  }
  const undici = (await loaders.entry()) as typeof import('undici');
  return {
    Agent: undici.Agent,
    request: undici.Agent.prototype.request as UndiciParts['request'],
    modules: false,
  };
}
