import type { core } from 'zod/mini';

/**
 * zod's `compile` (its documented ahead-of-time compiler): a clone of a schema, same rules, with
 * a generated fast path for valid input; invalid input goes through the schema's own parser, so
 * results and messages are the schema's. What the CLI provides (src/cli/load-client.ts).
 */
export type SchemaCompiler = <T extends core.$ZodType>(schema: T) => T;

let load: (() => Promise<SchemaCompiler>) | undefined;
let loading: Promise<void> | undefined;
let compiler: SchemaCompiler | undefined;

/**
 * Gives the hot parses ({@link compiledSchema}) zod's compiler, loaded by `loader` when a job that
 * parses row after row starts ({@link loadSchemaCompiler}), not when the package loads: the
 * compiler is about 75 KB. The CLI provides it; the library's builds do not (in them it would
 * sit in the chunk every entry imports), nor would a Worker's (it forbids `new Function`): they
 * parse with the schemas as they are.
 */
export function provideSchemaCompiler(loader: () => Promise<SchemaCompiler>): void {
  load = loader;
  // A loader given after one that failed is tried at the next load.
  if (!compiler) loading = undefined;
}

/**
 * Loads the provided compiler, once; does nothing without one, and a compiler that fails to load
 * leaves the schemas as they are. Schemas asked for afterwards come compiled.
 */
export function loadSchemaCompiler(): Promise<void> {
  if (!load || compiler) return Promise.resolve();
  loading ??= load().then(
    (compile) => {
      compiler = compile;
    },
    () => {},
  );
  return loading;
}

/**
 * A getter of `schema()` compiled, once the compiler is loaded ({@link loadSchemaCompiler}), else
 * of `schema()` itself: the same rules either way, one schema per wire object. For parses that
 * run once per row or item of a batch.
 */
export function compiledSchema<T extends core.$ZodType>(schema: () => T): () => T {
  let compiled: T | undefined;
  return () => {
    if (compiled) return compiled;
    if (!compiler) return schema();
    compiled = compiler(schema());
    return compiled;
  };
}
