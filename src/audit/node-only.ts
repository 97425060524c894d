// `#audit-node-only` on Node (package.json `imports`, condition `node`): the audit features that
// need Node's files (export, sync, the archive), each loaded at its feature's first call, so that
// importing an entry compiles none of them. Every other runtime's build gets node-only-web.ts,
// which has the same names and rejects with `unsupported_runtime` instead: a bundler building for
// Workers, edge routes or browsers never reaches node:fs. The audit client loads them only here.

/** The audit exporter (node:fs, node:zlib). */
export const loadAuditExport = () => import('../node/audit-export/export.js');

/** The audit sync run (the exporter, its archive files and lock). */
export const loadAuditSync = () => import('../node/audit-sync/sync.js');

/** The archive's gap ledger and state, as one object. */
export const loadAuditArchive = () =>
  Promise.all([import('../node/audit-archive/gaps.js'), import('../node/audit-archive/state.js')]).then(
    ([gaps, state]) => ({
      ...gaps,
      ...state,
    }),
  );

/** Where an archive lives: a folder, or a bucket (whose AWS SDK loads only for `s3://`). */
export const loadArchiveStore = () => import('../node/audit-store/open-store.js');

/** The archive verifier (re-hashes files, checks signatures with node:crypto). */
export const loadArchiveVerifier = () => import('../node/audit-archive/verify.js');

/** The archive copy between a folder and a bucket (streams, node:crypto). */
export const loadArchiveCopy = () => import('../node/audit-archive/copy.js');
