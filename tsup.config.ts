import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

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
    clean: true,
    target: 'node20',
    platform: 'node',
    sourcemap: false,
    splitting: true,
    define,
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
