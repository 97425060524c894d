declare const __SVC_SCHEMA_DOCS__: boolean | undefined;

/**
 * Whether wire schemas carry their descriptions (zod's global registry, read by the OpenAPI
 * document). True everywhere but the Web build (dist/web), which defines `__SVC_SCHEMA_DOCS__`
 * as false at build time: a constant, so a minifying bundler drops the description strings and
 * zod's registry from a Worker's bundle. Write `SCHEMA_DOCS && { description }` where a
 * description is given, so the strings are dropped with it.
 */
export const SCHEMA_DOCS: boolean = typeof __SVC_SCHEMA_DOCS__ === 'undefined' || __SVC_SCHEMA_DOCS__;
