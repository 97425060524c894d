import type { Command } from '@commander-js/extra-typings';
import { defineCommand } from '../command.js';

/** `svc precheck CC VALUE`: offline, no request; its handler (tax.ts) loads when it runs. */
export const precheckCommand = defineCommand({
  path: 'precheck',
  summary: 'check the format and check digit of a tax ID offline (no network)',
  configure: (command: Command) => command.argument('<countryCode>').argument('<rawValue>'),
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: ['svc precheck DE 136695976', 'svc precheck NL 123456789B01 -o json   # exit 2: checksum'],
  load: async () => (await import('../handlers/tax.js')).precheckCommand,
});
