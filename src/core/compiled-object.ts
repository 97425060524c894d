import * as z from 'zod/mini';
import { $constructor, $ZodObjectJIT } from 'zod/v4/core';

// Apart from core/schema.ts (which loads zod's English messages), for the Node build's bot-check
// parsers (botcheck/result-parsing-compiled.ts), which load nothing more.

/**
 * zod/mini's object schema with classic zod's compiled parser ($ZodObjectJIT, where the runtime
 * allows `new Function`): zod/mini leaves it out for size, and parsing a validation request took
 * 1.6 us with it out against 1.0 us (a batch parses one a row, the reference server one an item).
 * Pure (no top-level property read either): a bundle that uses none of these objects drops the
 * compiled parser with them.
 */
const ZodMiniObjectJIT = /* @__PURE__ */ $constructor(
  'ZodMiniObjectJIT',
  (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
    // Compiled parse first; zod/mini's object then adds its methods and `shape` (its own object
    // initialiser is skipped: zod runs each trait's once).
    $ZodObjectJIT.init(inst, def);
    (z.ZodMiniObject.init as (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => void)(inst, def);
  },
);

/** `z.object` of zod/mini, parsed by compiled code (unknown keys are dropped). */
export function object<const T extends z.core.$ZodLooseShape>(shape: T): z.ZodMiniObject<T, z.core.$strip> {
  return new ZodMiniObjectJIT({ type: 'object', shape }) as unknown as z.ZodMiniObject<T, z.core.$strip>;
}

/** `z.strictObject` of zod/mini, parsed by compiled code (unknown keys are refused). */
export function strictObject<const T extends z.core.$ZodLooseShape>(
  shape: T,
): z.ZodMiniObject<T, z.core.$strict> {
  return new ZodMiniObjectJIT({ type: 'object', shape, catchall: z.never() }) as unknown as z.ZodMiniObject<
    T,
    z.core.$strict
  >;
}

/** `z.looseObject` of zod/mini, parsed by compiled code (unknown keys are kept). */
export function looseObject<const T extends z.core.$ZodLooseShape>(
  shape: T,
): z.ZodMiniObject<T, z.core.$loose> {
  return new ZodMiniObjectJIT({ type: 'object', shape, catchall: z.unknown() }) as unknown as z.ZodMiniObject<
    T,
    z.core.$loose
  >;
}

/**
 * A copy of an object schema parsed by compiled code: the same definition (shape, rule for unknown
 * keys), so it accepts, refuses and returns exactly what `schema` does; for a parser built on a
 * zod/mini object schema that must stay small where it is defined (the Web build).
 */
export function compiledCopy<S extends z.ZodMiniObject>(schema: S): S {
  return new ZodMiniObjectJIT(schema._zod.def) as unknown as S;
}
