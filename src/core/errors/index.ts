export * from './error-classes.js';
