// `#webhooks-node-only` on Node (package.json `imports`, condition `node`): the webhook listener's
// server (node:http, a socket), loaded at the first call. Every other runtime's build gets
// node-only-web.ts, whose loader rejects with `unsupported_runtime`: a bundler for Workers, edge
// routes or browsers never reaches node:http. Webhook code loads it only here.

/** The webhook listener's server (node:http, host guard, connection bounds). */
export const loadWebhookListener = () => import('../../node/webhooks/server.js');
