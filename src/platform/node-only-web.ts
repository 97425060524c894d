import { leftOutOfWebBuild } from '../core/node-builtin.js';
import type * as NodeOnly from './node-only.js';

// `#node-only` everywhere but Node (package.json `imports`, condition `default`): the build for
// Workers, edge runtimes and browsers (dist/web). The same loaders as node-only.ts (the types say
// so), each rejecting with the documented `unsupported_runtime` error that names its feature.

/** A loader of `feature` that rejects with `unsupported_runtime`, at the call, never at import. */
const leftOut =
  (feature: string) =>
  (..._args: unknown[]): Promise<never> =>
    Promise.reject(leftOutOfWebBuild(feature));

export const loadAuditExport: typeof NodeOnly.loadAuditExport = leftOut('client.audit.exportEvents');
export const loadAuditSync: typeof NodeOnly.loadAuditSync = leftOut('client.audit.sync');
export const loadAuditArchive: typeof NodeOnly.loadAuditArchive = leftOut('The audit archive gap functions');
export const loadArchiveVerifier: typeof NodeOnly.loadArchiveVerifier = leftOut('verifyAuditArchive');
export const loadBatchFile: typeof NodeOnly.loadBatchFile = leftOut('client.tax.runBatchFile');
export const loadUndici: typeof NodeOnly.loadUndici = leftOut('undici, the Node HTTP client,');
export const loadNodeHttp: typeof NodeOnly.loadNodeHttp = leftOut('The node:http transport');
