import type { Command } from '@commander-js/extra-typings';
import { defineCommand } from '../command.js';

/** `svc schedules delete ID`: its handler (tax.ts) loads when it runs. */
export const schedulesDeleteCommand = defineCommand({
  path: 'schedules delete',
  summary: 'delete a schedule',
  configure: (command: Command) => command.argument('<scheduleId>'),
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc schedules delete 7c1e0a52-0000-4000-8000-000000000002',
    'svc --profile staging schedules delete 7c1e0a52-0000-4000-8000-000000000002',
  ],
  load: async () => (await import('../handlers/tax.js')).schedulesDelete,
});
