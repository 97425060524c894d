import * as z from 'zod/mini';
import { SCHEMA_DOCS } from './schema-docs.js';

/**
 * An enum that accepts values it does not know: typed as the known values plus any string, so a
 * value the service adds later never breaks a caller. A zod/mini schema (wrap it with
 * `z.optional(...)`); every wire schema's open enum is this one.
 *
 * Every string passes, so the known values are documentation (the OpenAPI document lists them):
 * where schema descriptions are left out (the Web build, see {@link SCHEMA_DOCS}) the schema is
 * the plain string it accepts, without the enum. Pass `SCHEMA_DOCS && VALUES` so that the list
 * itself is left out there too.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T | false) {
  // The union says what the plain string says when a value is not a string: one message in both builds.
  const schema =
    SCHEMA_DOCS && values ? z.union([z.enum(values), z.string()], { error: 'expected string' }) : z.string();
  return schema as unknown as z.ZodMiniType<T[number] | (string & {})>;
}
