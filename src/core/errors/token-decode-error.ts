export { TokenDecodeError, type TokenDecodeReason } from './error-classes.js';
