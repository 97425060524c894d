import * as z from 'zod';

export { parseRequest, parseResponse } from './parse.js';

/**
 * An enum that accepts values it does not know: typed as the known values plus any string, so a
 * value the service adds later never breaks a caller.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
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
