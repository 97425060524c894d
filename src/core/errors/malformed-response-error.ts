export { MalformedResponseError } from './error-classes.js';
