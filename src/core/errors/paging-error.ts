export { PagingError } from './error-classes.js';
