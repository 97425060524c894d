export { ConnectionError } from './error-classes.js';
