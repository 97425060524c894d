// `#node-only` on Node (package.json `imports`, condition `node`): the modules of the features that
// need Node (files, sockets, undici, CSV, workbooks), each loaded at its feature's first call, so
// that importing an entry compiles none of them. Every other runtime's build gets
// node-only-web.ts, which has the same names and throws `unsupported_runtime` instead: a bundler
// building for Workers, edge routes or browsers never reaches node:fs, node:http or undici.
// Web-safe code loads a Node-only module only through here.

/** The audit exporter (node:fs, node:zlib). */
export const loadAuditExport = () => import('../audit/export/export.js');

/** The audit sync run (the exporter, its archive files and lock). */
export const loadAuditSync = () => import('../audit/sync/sync.js');

/** The archive's gap ledger, lock and state files, as one object. */
export const loadAuditArchive = () =>
  Promise.all([
    import('../audit/archive/gaps.js'),
    import('../audit/sync/lock.js'),
    import('../audit/archive/state.js'),
  ]).then(([gaps, lock, state]) => ({ ...gaps, ...lock, ...state }));

/** The archive verifier (re-hashes files, checks signatures with node:crypto). */
export const loadArchiveVerifier = () => import('../audit/archive/verify.js');

/** The batch-file job (CSV, NDJSON and workbook files, checkpoints). */
export const loadBatchFile = () => import('../tax/batch-file/run-batch-file.js');

/** undici, through its public entry: the default transport of API calls on Node. */
export const loadUndici = () => import('undici');

/** Node's HTTP client for a scheme (node:https brings TLS): the bulk page reads' transport. */
export const loadNodeHttp = (scheme: 'http:' | 'https:') =>
  scheme === 'https:' ? import('node:https') : import('node:http');
