// `#tax-node-only` on Node (package.json `imports`, condition `node`): the tax features that need
// Node (the batch-file job: files, CSV, workbooks, checkpoints; the webhook listener: a socket),
// each loaded at its first call. Every other runtime's build gets node-only-web.ts, whose loaders
// reject with `unsupported_runtime`: a bundler for Workers, edge routes or browsers never reaches
// node:fs or node:http. Tax code loads them only here.

/** The batch-file job (CSV, NDJSON and workbook files, checkpoints). */
export const loadBatchFile = () => import('./batch-file/run.js');

/** The webhook listener's server (node:http, host guard, connection bounds). */
export const loadWebhookListener = () => import('./webhooks/node-server.js');
