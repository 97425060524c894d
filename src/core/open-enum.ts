import * as z from 'zod/mini';

/**
 * An enum that accepts values it does not know: typed as the known values plus any string, so a
 * value the service adds later never breaks a caller. A zod/mini schema (wrap it with
 * `z.optional(...)`), usable inside classic schemas too; `openEnum` of `core/schema.ts` is the
 * same rule with classic zod's methods.
 */
export function openEnumMini<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodMiniType<T[number] | (string & {})>;
}
