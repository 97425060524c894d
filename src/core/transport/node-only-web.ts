import { leftOutLoader as leftOut } from '../../node/fs/builtin.js';
import type * as NodeOnly from './node-only.js';

// `#transport-node-only` everywhere but Node (package.json `imports`, condition `default`): the
// same loaders as node-only.ts (the types say so), each rejecting with `unsupported_runtime`.

export const loadUndici: typeof NodeOnly.loadUndici = leftOut('undici, the Node HTTP client,');
export const loadNodeHttp: typeof NodeOnly.loadNodeHttp = leftOut('The node:http transport');
