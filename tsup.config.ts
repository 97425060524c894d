import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// Five builds, all plain: what differs between Node and the other runtimes is chosen by the
// package's own `imports` (package.json `#node-only`: condition `node` or `default`), resolved here
// by esbuild's platform, as any bundler of the package's users would.

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };
const define = { __SVC_VERSION__: JSON.stringify(version) };

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

/** What the Node builds share: zod inside the chunks (one file to load, not zod's ~40). */
const nodeBuild = {
  target: 'node20',
  platform: 'node',
  sourcemap: false,
  splitting: true,
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
    // dist/assets, dist/server and dist/web are the next builds' own; they run at the same time.
    clean: ['!assets/**', '!server/**', '!web/**'],
    ...nodeBuild,
  },
  {
    // The reference server: its own copy of zod and of the library modules it uses, so that its
    // JSON Schema generator and string formats stay out of the chunks `import('svc-sdk')` loads.
    entry: { index: 'src/server/index.ts' },
    format: ['esm', 'cjs'],
    outDir: 'dist/server',
    dts: false,
    clean: true,
    ...nodeBuild,
  },
  {
    // The library for bundlers of Workers, edge routes and browsers (export conditions `workerd`,
    // `worker`, `edge-light`, `browser`): `#node-only` resolves to the loaders that throw
    // `unsupported_runtime`, and zod stays an import the app's bundler shakes and shares.
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
    // The wire schemas' descriptions are for the OpenAPI document (src/core/schema-docs.ts);
    // minifySyntax folds the constant so the strings are gone from dist/web.
    define: { ...define, __SVC_SCHEMA_DOCS__: 'false' },
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
    // The CLI: ESM with code splitting, so each command's dependencies load only when it runs;
    // commander, string-width and zod inside its chunks (CommonJS commander needs a `require`).
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
