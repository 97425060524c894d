export { TimeoutError } from './error-classes.js';
