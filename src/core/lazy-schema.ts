/**
 * A schema built on first use, not at import: `export const X = lazySchema(() => z.object(...))`,
 * callers write `X()`. The builder runs once; every call returns the same object, so a schema
 * registered with `.meta()` is registered once and the OpenAPI document sees one identity.
 * Cold start: building every wire schema at import was most of `import('svc-sdk')`'s time.
 *
 * @param build makes the schema; called at most once (again only if it threw).
 * @returns a memoised getter of the schema.
 */
export function lazySchema<S>(build: () => S): () => S {
  let schema: S | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
