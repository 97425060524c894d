import type { Command } from '@commander-js/extra-typings';
import { defineCommand } from '../command.js';

/** `svc results get ID`: its handler (tax.ts) loads when it runs. */
export const resultsGetCommand = defineCommand({
  path: 'results get',
  summary: 'fetch one stored validation result',
  configure: (command: Command) => command.argument('<validationResultId>'),
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc results get 3f2b1c9e-0000-4000-8000-000000000001',
    'svc results get 3f2b1c9e-0000-4000-8000-000000000001 -o json',
  ],
  load: async () => (await import('../handlers/tax.js')).resultsGet,
});
