import { SvcError } from './svc-error.js';

/** One rule broken by a request, found before anything was sent. */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `customerMetadata.Key` or `items.3.rawValue`. */
  path: string;
  message: string;
}

/** The request broke a documented rule; nothing was sent. `issues` lists every problem. */
export class LocalValidationError extends SvcError {
  override name = 'LocalValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], what = 'request') {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(
      first
        ? `Invalid ${what}: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`
        : `Invalid ${what}`,
      'local_validation',
    );
    this.issues = issues;
  }
}
