import { z } from 'zod';
import { LocalValidationError } from './errors/local-validation-error.js';
import { MalformedResponseError } from './errors/malformed-response-error.js';
import { toIssues } from './zod-issues.js';

/**
 * An enum that accepts values it does not know: typed as the known values plus any string, so a
 * value the service adds later never breaks a caller.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
}

/** Parses a request locally; throws {@link LocalValidationError} listing every issue, so nothing is sent. */
export function parseRequest<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new LocalValidationError(toIssues(parsed.error), what);
  return parsed.data;
}

/**
 * Parses a response leniently (unknown keys and enum values kept); a response missing documented
 * fields, or with a value that can never be valid (a score outside 0..1, a negative page, a wrong
 * timestamp), is a {@link MalformedResponseError} (code `bad_response`).
 */
export function parseResponse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new MalformedResponseError(
      `Unexpected ${what} from the server${first ? `: ${first.path.join('.')} ${first.message}` : ''}`,
    );
  }
  return parsed.data;
}

/**
 * An ISO 8601 timestamp with a zone (`Z` or `+hh:mm`), fractions allowed: `format: date-time` in
 * the document. A response with another value is malformed. Pass the description here, or on the
 * outermost wrapper (`.nullable().meta(...)`) so the document shows it on the property.
 */
export function timestamp(description?: string) {
  const schema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a zone' });
  return description === undefined ? schema : schema.meta({ description });
}
