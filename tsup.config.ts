import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { nodeOnlyStubs } from './scripts/node-only-stubs.js';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };
const define = { __SVC_VERSION__: JSON.stringify(version) };

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      server: 'src/server/index.ts',
      // The bot check on Web APIs only (Workers, edge routes, Deno, Bun): no Node built-in, no undici.
      botcheck: 'src/botcheck/index.ts',
      // Bot-check adapters: framework packages are optional peers, never loaded by 'svc-sdk'.
      http: 'src/adapters/verify-request.ts',
      express: 'src/adapters/express.ts',
      fastify: 'src/adapters/fastify.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // dist/assets is the next build's own (cleaned there); the two run at the same time.
    clean: ['!assets/**'],
    target: 'node20',
    platform: 'node',
    sourcemap: false,
    splitting: true,
    // import.meta.url in the CommonJS build: the dev server finds its browser assets by it.
    shims: true,
    define,
  },
  {
    // The root entry for Workers, edge runtimes and browsers (package.json conditions workerd,
    // worker, edge-light, browser): the same code, with the modules of Node-only features replaced
    // by ones that throw `unsupported_runtime` (scripts/node-only-stubs.ts), so that wrangler or
    // Next.js never reach node:fs or undici. Node, Bun and Deno get dist/index.js.
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    outDir: 'dist/web',
    dts: false,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    splitting: true,
    // Left to the stubs plugin rather than marked external (node:x keeps its prefix).
    noExternal: ['undici'],
    removeNodeProtocol: false,
    esbuildPlugins: [nodeOnlyStubs(process.cwd())],
    define,
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
    define,
  },
]);
