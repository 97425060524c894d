import type { Command } from '@commander-js/extra-typings';
import { defineCommand } from '../command.js';

/** `svc token decode TOKEN`: offline, no request; its handler (token.ts) loads when it runs. */
export const tokenDecodeCommand = defineCommand({
  path: 'token decode',
  summary: 'decode a verification token offline (no network)',
  configure: (command: Command) => command.argument('<token>', "the token, or '-' to read it from stdin"),
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: ['svc token decode "$TOKEN"', 'pbpaste | svc token decode -'],
  load: async () => (await import('../handlers/token.js')).tokenDecode,
});
