export * from './abort-error.js';
export * from './api-error.js';
export * from './connection-error.js';
export * from './local-validation-error.js';
export * from './svc-error.js';
export * from './timeout-error.js';
export * from './token-decode-error.js';
