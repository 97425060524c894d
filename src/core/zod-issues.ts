import type { core } from 'zod/mini';
import type { ValidationIssue } from './errors/error-classes.js';

/**
 * The issues that explain a failed union: those of the alternative the value was meant for, with
 * their paths under the union's own. That is the alternative with the fewest issues among those
 * that take the value's shape and all of its keys (no unknown key, no wrong type of the whole).
 * Undefined when no single alternative stands out: the union's own message is all that can be said.
 */
function unionIssues(issue: core.$ZodIssueInvalidUnion): core.$ZodIssue[] | undefined {
  const fits = issue.errors.filter(
    (branch) =>
      !branch.some(
        (i) => i.code === 'unrecognized_keys' || (i.code === 'invalid_type' && i.path.length === 0),
      ),
  );
  const fewest = Math.min(...fits.map((branch) => branch.length));
  const closest = fits.filter((branch) => branch.length === fewest);
  if (closest.length !== 1) return undefined;
  return (closest[0] as core.$ZodIssue[]).map((inner) => ({
    ...inner,
    path: [...issue.path, ...inner.path],
  }));
}

function flatten(issues: readonly core.$ZodIssue[]): core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    // A union with a message of its own (`{ error: 'expected string' }`) says what it means already.
    const inner =
      issue.code === 'invalid_union' && issue.message === 'Invalid input' ? unionIssues(issue) : undefined;
    return inner ? flatten(inner) : [issue];
  });
}

/**
 * The issues of a failed parse, a failed union replaced by the issues of the alternative the value
 * was meant for (see {@link toIssues}); for callers that phrase issues by their code.
 */
export function flatIssues(error: core.$ZodError): core.$ZodIssue[] {
  return flatten(error.issues);
}

/**
 * What an issue says, also where no zod locale is loaded: zod/mini alone says only "Invalid input"
 * for a wrong type, which names nothing; then the expected type is said instead.
 */
function issueText(issue: core.$ZodIssue): string {
  return issue.code === 'invalid_type' && issue.message === 'Invalid input'
    ? `expected ${issue.expected}`
    : issue.message;
}

/**
 * Zod issues as `{path, message}` with dotted paths (`items.3.rawValue`), the shape of both
 * {@link ValidationIssue} and the `errors` member of a problem document. `prefix` is put before
 * every path, e.g. `items.3.` for an item checked on its own. A failed union names the field of
 * the alternative the value was meant for (`advanceMs: expected number`), not just "Invalid input".
 */
export function toIssues(error: core.$ZodError, prefix = ''): ValidationIssue[] {
  return flatten(error.issues).map((issue) => ({
    path: prefix + issue.path.map(String).join('.'),
    message: issueText(issue),
  }));
}
