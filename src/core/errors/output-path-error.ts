export { OutputPathError } from './error-classes.js';
