export { TransportError } from './error-classes.js';
