import { z } from 'zod';

export { parseRequest, parseResponse } from './parse.js';

/**
 * An enum that accepts values it does not know: typed as the known values plus any string, so a
 * value the service adds later never breaks a caller. Classic zod, for chaining `.optional()`;
 * bot-check schemas use the zod/mini form, {@link openEnumMini} in `open-enum.ts`.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
}
