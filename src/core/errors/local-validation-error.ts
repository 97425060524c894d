export { LocalValidationError, type ValidationIssue } from './error-classes.js';
