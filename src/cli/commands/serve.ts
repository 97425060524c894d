import { defineCommand } from '../command.js';
import { serveOptions } from '../options/serve-options.js';

/** `svc serve`: its handler (serve.ts, and the server behind it) loads when it runs. */
export const serveCommand = defineCommand({
  path: 'serve',
  summary: 'run the in-memory reference server of the four APIs',
  configure: serveOptions,
  outputs: [],
  examples: ['svc serve', 'svc serve --port 0 --seed-audit-events 10000'],
  load: async () => (await import('../handlers/serve.js')).serve,
});
