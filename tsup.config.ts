import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// Five plain builds. What differs between Node and other runtimes is one entry file: the Node
// build of the root entry is src/node/root-entry.ts (the root plus Node's transports as its
// clients' default); every other entry is the same file in both builds, and nothing outside the
// Node wing (src/node) imports Node or the wing.
const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };
const define = { __SVC_VERSION__: JSON.stringify(version) };

/** The library's entries, built for Node (dist/) and for bundlers of other runtimes (dist/web/). */
const libraryEntries = {
  index: 'src/index.ts',
  botcheck: 'src/botcheck/index.ts',
  http: 'src/botcheck/verify-request.ts',
  push: 'src/audit/push/index.ts',
  express: 'src/adapters/express.ts',
  fastify: 'src/adapters/fastify.ts',
  testing: 'src/testing/index.ts',
};

/** The Node-only entry (`svc-sdk/node`): no build for other runtimes. */
const nodeEntries = { node: 'src/node/index.ts' };

/** The library's entries as the Node build compiles them: the root with Node's transports. */
const nodeLibraryEntries = { ...libraryEntries, index: 'src/node/root-entry.ts' };

/** The Node builds: zod inside the chunks (one file to load, not zod's ~40); shims give the CJS build import.meta.url. */
const nodeBuild = {
  target: 'node20',
  platform: 'node',
  sourcemap: false,
  splitting: true,
  noExternal: ['zod'],
  shims: true,
  define,
} satisfies Options;

export default defineConfig([
  {
    entry: { ...nodeLibraryEntries, ...nodeEntries },
    format: ['esm', 'cjs'],
    // The types of svc-sdk/server too (its code is the next build's).
    dts: { entry: { ...libraryEntries, ...nodeEntries, server: 'src/server/index.ts' } },
    // dist/assets, dist/server and dist/web belong to the other builds, which run at the same time.
    clean: ['!assets/**', '!server/**', '!web/**'],
    ...nodeBuild,
  },
  {
    // The reference server, with its own zod: its string formats stay out of the library's chunks.
    entry: { index: 'src/server/index.ts' },
    format: ['esm', 'cjs'],
    outDir: 'dist/server',
    dts: false,
    clean: true,
    ...nodeBuild,
  },
  {
    // For Workers, edge routes and browsers (export conditions workerd, worker, edge-light,
    // browser): no module of the Node wing, zod stays an import
    // the app's bundler shakes, and the schemas' descriptions (for the OpenAPI document) are
    // folded away.
    entry: libraryEntries,
    format: ['esm'],
    outDir: 'dist/web',
    dts: false,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    sourcemap: false,
    splitting: true,
    removeNodeProtocol: false,
    define: { ...define, __SVC_SCHEMA_DOCS__: 'false' },
    minifySyntax: true,
  },
  {
    // The dev server's pages (console, stand-in widget): classic scripts.
    entry: { console: 'src/server/console/browser/main.ts', widget: 'src/server/widget/browser/widget.ts' },
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
    // The CLI: each command's dependencies load when it runs; CommonJS commander needs `require`.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    outDir: 'dist/cli',
    dts: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    noExternal: ['commander', 'string-width', 'zod'],
    banner: {
      js: "import { createRequire as __svcRequire } from 'node:module';\nconst require = __svcRequire(import.meta.url);",
    },
    define,
  },
]);
