// `#transport-node-only` on Node (package.json `imports`, condition `node`): what the Node
// transports load at their first request. Every other runtime's build gets node-only-web.ts,
// whose loaders reject with `unsupported_runtime`: a bundler for Workers, edge routes or browsers
// never reaches undici or node:http (those runtimes use the fetch transport).

/** undici, through its public entry: the default transport of API calls on Node. */
export const loadUndici = () => import('undici');

/** Node's HTTP client for a scheme (node:https brings TLS): the bulk page reads' transport. */
export const loadNodeHttp = (scheme: 'http:' | 'https:') =>
  scheme === 'https:' ? import('node:https') : import('node:http');
