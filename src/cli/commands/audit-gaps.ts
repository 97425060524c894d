import { defineCommand } from '../command.js';
import { auditGapsOptions } from '../options/audit-gaps-options.js';

/** `svc audit gaps`: a command, and the group of `audit gaps ack`; its handler (audit-gaps.ts) loads when it runs. */
export const auditGapsCommand = defineCommand({
  path: 'audit gaps',
  summary: 'the gaps a sync archive recorded: range, cause, whether the API may still hold them, status',
  configure: auditGapsOptions,
  outputs: ['json'],
  examples: ['svc audit gaps --dir audit/', 'svc audit gaps --dir audit/ -o json'],
  load: async () => (await import('../handlers/audit-gaps.js')).auditGaps,
});
