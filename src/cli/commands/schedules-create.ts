import { defineCommand } from '../command.js';
import { schedulesCreateOptions } from '../options/schedules-create-options.js';

/** `svc schedules create CC VALUE`: its handler (tax.ts) loads when it runs. */
export const schedulesCreateCommand = defineCommand({
  path: 'schedules create',
  summary: 'put a tax ID on a recurring schedule',
  configure: schedulesCreateOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc schedules create DE 136695976 --frequency MONTHLY',
    'svc schedules create FR 40303265045 --frequency YEARLY --disabled -o json',
  ],
  load: async () => (await import('../handlers/tax.js')).schedulesCreate,
});
