import type * as z from 'zod/mini';
import { flatIssues } from '../../core/zod-issues.js';

/**
 * How reasons name a request field: the caller's own name for it (a spreadsheet column such as
 * `USt-IdNr`), else the field's dotted path (`address.city`).
 */
export type FieldNamer = (path: string) => string;

const ownPath: FieldNamer = (path) => path;

/** One schema issue as a reason a person can act on: `USt-IdNr is empty`, `Firma is longer than 256 characters`. */
function issueReason(issue: z.core.$ZodIssue, name: FieldNamer): string {
  const path = issue.path.map(String).join('.');
  const field = path ? name(path) : 'the row';
  switch (issue.code) {
    case 'invalid_type':
      return issue.message.endsWith('received undefined') ? `${field} is empty` : `${field} is not text`;
    case 'too_big':
      return `${field} is longer than ${String(issue.maximum)} characters`;
    case 'too_small':
      return `${field} is empty`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    case 'invalid_key':
      return `${field}: ${issue.message === 'Invalid key in record' ? 'the key may hold only a-z, 0-9, _ and -' : issue.message}`;
    default:
      return `${field} ${issue.message}`;
  }
}

/** Every issue of a schema failure as one line of reasons, `; `-separated. */
export function schemaReason(error: z.core.$ZodError, name: FieldNamer = ownPath): string {
  return flatIssues(error)
    .map((issue) => issueReason(issue, name))
    .join('; ');
}
