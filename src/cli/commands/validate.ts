import { defineCommand } from '../command.js';
import { validateOptions } from '../options/validate-options.js';

/** `svc validate CC VALUE`: its handler (tax.ts) loads when it runs. */
export const validateCommand = defineCommand({
  path: 'validate',
  summary: 'validate one tax ID against its registry',
  configure: validateOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc validate DE 136695976',
    'svc validate GB 136695976 --company-name "Example Ltd" -o json',
    'svc validate CH CHE-123.456.788 --schedule MONTHLY --idempotency-key o-42',
  ],
  load: async () => (await import('../handlers/tax.js')).validate,
});
