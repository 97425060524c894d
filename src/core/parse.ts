import { type core, safeParse } from 'zod/mini';
import { LocalValidationError, MalformedResponseError } from './errors/error-classes.js';
import { toIssues } from './zod-issues.js';

// Built on zod/mini's functions, which take any zod schema (classic or mini), so the bot-check
// entry parses without loading classic zod and its locales.

/** Parses a request locally; throws {@link LocalValidationError} listing every issue, so nothing is sent. */
export function parseRequest<T>(schema: core.$ZodType<T>, value: unknown, what: string): T {
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw new LocalValidationError(toIssues(parsed.error), what);
  return parsed.data;
}

/**
 * Parses a response leniently (unknown keys and enum values kept); a response missing documented
 * fields, or with a value that can never be valid (a score outside 0..1, a negative page, a wrong
 * timestamp), is a {@link MalformedResponseError} (code `bad_response`).
 */
export function parseResponse<T>(schema: core.$ZodType<T>, value: unknown, what: string): T {
  const parsed = safeParse(schema, value);
  if (!parsed.success) {
    const first = toIssues(parsed.error)[0];
    throw new MalformedResponseError(
      `Unexpected ${what} from the server${first ? `: ${first.path} ${first.message}` : ''}`,
    );
  }
  return parsed.data;
}
