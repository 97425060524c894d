export { isSvcError, SvcError } from './error-classes.js';
