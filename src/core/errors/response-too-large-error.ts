export { ResponseTooLargeError } from './error-classes.js';
