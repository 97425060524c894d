import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };

export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/node-platform.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on child processes, servers and browsers rather than compute: three forks
    // keep 2 cores busy (vitest's default here, cores - 1, is one fork at a time).
    maxWorkers: 3,
  },
});
