import { nodeBuiltin } from '../core/node-builtin.js';
import type * as Document from './document.js';

// What `buildOpenApiDocument` is in the Node build of the root entry (dist/index.js and .cjs):
// tsup.config.ts puts this module in place of ./document.js there. The builder and zod's JSON
// Schema generator are some 70 KB that every `import('svc-sdk')` would compile; the document is
// asked for rarely, so its call loads them, synchronously, from the builder's own entry
// (dist/server/openapi-document.js, or .cjs; the chunk this module is bundled in is in dist/).
// From src (tests) and in dist/web (bundlers) the builder is imported as usual.

/** The builder's entry, relative to dist/ (tsup.config.ts). */
export const OPENAPI_ENTRY = './server/openapi-document';

/**
 * The OpenAPI 3.1 document of the four APIs, generated from the same zod schemas the client and
 * the reference server use.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const { createRequire } = nodeBuiltin('node:module', 'buildOpenApiDocument');
  const here = import.meta.url;
  // Node 20.19+, Bun and Deno load an ES module with require(); the CommonJS build loads its own.
  const entry = `${OPENAPI_ENTRY}.${here.endsWith('.cjs') ? 'cjs' : 'js'}`;
  return (createRequire(here)(entry) as typeof Document).buildOpenApiDocument();
}
