export { CheckpointError } from './error-classes.js';
