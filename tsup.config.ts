import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { botCheckOneFile } from './scripts/botcheck-one-file.js';
import { dropHelperImports } from './scripts/drop-helper-imports.js';
import { nodeOnlyStubs } from './scripts/node-only-stubs.js';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };
const define = { __SVC_VERSION__: JSON.stringify(version) };
// The Web build leaves the wire schemas' descriptions out (src/core/schema-docs.ts): they are for the
// OpenAPI document, and a Worker's bundle is smaller without them.
const webDefine = { ...define, __SVC_SCHEMA_DOCS__: 'false' };

/**
 * The web build loads the bot-check parsers statically (src/botcheck/result-parsers-eager.ts): a
 * bundler would inline the Node build's dynamic import as lazily initialised modules, a larger Worker.
 */
const eagerResultParsers: Plugin = {
  name: 'eager-result-parsers',
  setup(build) {
    build.onResolve({ filter: /^\.\/result-parsers\.js$/ }, () => ({
      path: resolve('src/botcheck/result-parsers-eager.ts'),
    }));
  },
};

/**
 * The Node build of the root entry loads the OpenAPI builder when `buildOpenApiDocument` is called
 * (src/openapi/document-loader.ts), from the builder's own entry in dist/server/, not at
 * `import('svc-sdk')`.
 */
const lazyOpenApiDocument: Plugin = {
  name: 'lazy-openapi-document',
  setup(build) {
    build.onResolve({ filter: /^\.\/openapi\/document\.js$/ }, (args) =>
      args.importer === resolve('src/index.ts')
        ? { path: resolve('src/openapi/document-loader.ts') }
        : undefined,
    );
  },
};

/** The library's entries, built for Node (dist/) and for bundlers (dist/web/). */
const libraryEntries = {
  index: 'src/index.ts',
  // The bot check on Web APIs only (Workers, edge routes, Deno, Bun): no Node built-in, no undici.
  botcheck: 'src/botcheck/index.ts',
  // Bot-check adapters: framework packages are optional peers, never loaded by 'svc-sdk'.
  http: 'src/adapters/verify-request.ts',
  express: 'src/adapters/express.ts',
  fastify: 'src/adapters/fastify.ts',
};

/** What the Node builds (the library entries and dist/server) share. */
const nodeBuild = {
  target: 'node20',
  platform: 'node',
  sourcemap: false,
  splitting: true,
  // zod inside the chunks: Node resolves, reads and compiles each file an entry loads, and zod's
  // ~40 files were most of the time `import('svc-sdk')` took (bundler users get dist/web).
  noExternal: ['zod'],
  // import.meta.url in the CommonJS build: the dev server finds its browser assets by it.
  shims: true,
  define,
} satisfies Options;

export default defineConfig([
  {
    entry: libraryEntries,
    format: ['esm', 'cjs'],
    // The types of svc-sdk/server too (dist/server.d.ts): its code is the next build's.
    dts: { entry: { ...libraryEntries, server: 'src/server/index.ts' } },
    // dist/assets, dist/server and dist/web are the next builds' own (cleaned there); they run at the same time.
    clean: ['!assets/**', '!server/**', '!web/**'],
    ...nodeBuild,
    // The OpenAPI builder loaded at its call, and `svc-sdk/botcheck` in one file: cold start.
    esbuildPlugins: [lazyOpenApiDocument, botCheckOneFile(process.cwd()), dropHelperImports()],
  },
  {
    // The entries that generate JSON Schema (the reference server's documents and admin listing,
    // the OpenAPI builder): a build of their own, in dist/server/. In one build with the library,
    // esbuild puts every part of zod that any entry uses (its JSON Schema generator, the string
    // formats the server checks) in the chunks every `import('svc-sdk')` loads; this build has its
    // own copy of zod and of the library modules the server uses.
    entry: {
      index: 'src/server/index.ts',
      // What `buildOpenApiDocument` of the root loads at its call (src/openapi/document-loader.ts).
      'openapi-document': 'src/openapi/document.ts',
    },
    format: ['esm', 'cjs'],
    outDir: 'dist/server',
    // Its types are dist/server.d.ts (the first build).
    dts: false,
    clean: true,
    ...nodeBuild,
  },
  {
    // The same library entries for bundlers that build for Workers, edge routes and browsers (the
    // `workerd`, `worker`, `edge-light` and `browser` export conditions): zod stays an import, so
    // the bundler shakes it to what the code uses (zod's package declares no side effects) and
    // shares it with the app's own zod; the modules of Node-only features are replaced by ones that
    // throw `unsupported_runtime` (scripts/node-only-stubs.ts), so that wrangler or Next.js never
    // reach node:fs or undici. Node, Bun and Deno get dist/*.js. Types are those of dist/*.d.ts.
    entry: libraryEntries,
    format: ['esm'],
    outDir: 'dist/web',
    dts: false,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    sourcemap: false,
    splitting: true,
    // Left to the stubs plugin rather than marked external (node:x keeps its prefix).
    noExternal: ['undici'],
    removeNodeProtocol: false,
    esbuildPlugins: [nodeOnlyStubs(process.cwd()), eagerResultParsers],
    define: webDefine,
    // Folds the build-time constants (SCHEMA_DOCS) where they are used, so the strings they guard
    // are gone from dist/web; an app's bundler would keep them behind a `var`.
    minifySyntax: true,
  },
  {
    // Pages of the dev server (console, stand-in widget): classic scripts, no Node, no network.
    entry: {
      console: 'src/server/console/browser/main.ts',
      widget: 'src/server/widget/browser/widget.ts',
    },
    format: ['iife'],
    outDir: 'dist/assets',
    outExtension: () => ({ js: '.js' }),
    dts: false,
    clean: true,
    target: 'es2022',
    platform: 'browser',
    splitting: false,
  },
  {
    // The CLI: ESM with code splitting, so each command's dependencies load only when it runs.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    outDir: 'dist/cli',
    dts: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    // commander, string-width and zod inside the CLI's chunks: each package file is one more module
    // to resolve and load at every start (zod's ~40 files cost a one-row `svc batch` 34 ms of its
    // 456). commander is CommonJS: its require() of Node built-ins needs a require in the ES module.
    noExternal: ['commander', 'string-width', 'zod'],
    // Each start loads one file fewer: the chunk of esbuild's helpers is imported only where used.
    esbuildPlugins: [dropHelperImports()],
    banner: {
      js: "import { createRequire as __svcRequire } from 'node:module';\nconst require = __svcRequire(import.meta.url);",
    },
    define,
  },
]);
