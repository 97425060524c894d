import type { core } from 'zod/mini';
import type { ValidationIssue } from './errors/error-classes.js';

/**
 * Zod issues as `{path, message}` with dotted paths (`items.3.rawValue`), the shape of both
 * {@link ValidationIssue} and the `errors` member of a problem document. `prefix` is put before
 * every path, e.g. `items.3.` for an item checked on its own.
 */
export function toIssues(error: core.$ZodError, prefix = ''): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: prefix + issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
