export { MAX_NORMALIZED_LENGTH, normalizeTaxId } from './normalize.js';
export { precheck } from './precheck.js';
export { registryFor, SUPPORTED_COUNTRIES } from './registry.js';
export type { PrecheckCode, PrecheckResult, Provider } from './types.js';
