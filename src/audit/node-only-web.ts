import { leftOutLoader as leftOut } from '../node/fs/builtin.js';
import type * as NodeOnly from './node-only.js';

// `#audit-node-only` everywhere but Node (package.json `imports`, condition `default`): the build for
// Workers, edge runtimes and browsers (dist/web). The same loaders as node-only.ts (the types say
// so), each rejecting with the documented `unsupported_runtime` error that names its feature.

export const loadAuditExport: typeof NodeOnly.loadAuditExport = leftOut('client.audit.exportEvents');
export const loadAuditSync: typeof NodeOnly.loadAuditSync = leftOut('client.audit.sync');
export const loadAuditArchive: typeof NodeOnly.loadAuditArchive = leftOut('The audit archive gap functions');
export const loadArchiveStore: typeof NodeOnly.loadArchiveStore = leftOut('The audit archive stores');
export const loadArchiveVerifier: typeof NodeOnly.loadArchiveVerifier = leftOut('verifyAuditArchive');
export const loadArchiveCopy: typeof NodeOnly.loadArchiveCopy = leftOut('copyAuditArchive');
