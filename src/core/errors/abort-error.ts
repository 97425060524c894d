export { AbortError } from './error-classes.js';
