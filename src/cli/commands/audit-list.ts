import { defineCommand } from '../command.js';
import { auditListOptions } from '../options/audit-list-options.js';

/** `svc audit list`: its handler (audit.ts) loads when it runs. */
export const auditListCommand = defineCommand({
  path: 'audit list',
  summary: 'one page of audit events, newest first',
  configure: auditListOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc audit list --from 2026-01-01 --to 2026-01-31',
    'svc audit list --page-size 500 --cursor CURSOR -o json',
  ],
  load: async () => (await import('../handlers/audit.js')).auditList,
});
