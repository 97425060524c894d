import { leftOutLoader as leftOut } from '../node/fs/builtin.js';
import type * as NodeOnly from './node-only.js';

// `#tax-node-only` everywhere but Node (package.json `imports`, condition `default`): the same
// loader as node-only.ts (the types say so), rejecting with `unsupported_runtime`.

export const loadBatchFile: typeof NodeOnly.loadBatchFile = leftOut('client.tax.runBatchFile');
