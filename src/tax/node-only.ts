// `#tax-node-only` on Node (package.json `imports`, condition `node`): the tax feature that needs
// Node (the batch-file job: files, CSV, workbooks, checkpoints), loaded at its first call; the
// webhook listener has its own switch (webhooks/node-only.ts). Every other runtime's build gets
// node-only-web.ts, whose loader rejects with `unsupported_runtime`: a bundler for Workers, edge
// routes or browsers never reaches node:fs. Tax code loads it only here.

/** The batch-file job (CSV, NDJSON and workbook files, checkpoints). */
export const loadBatchFile = () => import('../node/batch-file/run.js');
