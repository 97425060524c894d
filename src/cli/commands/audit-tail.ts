import { defineCommand } from '../command.js';
import { auditTailOptions } from '../options/audit-tail-options.js';

/** `svc audit tail`: its handler (audit.ts) loads when it runs. */
export const auditTailCommand = defineCommand({
  path: 'audit tail',
  summary: 'follow new audit events, oldest first, as NDJSON',
  configure: auditTailOptions,
  outputs: ['ndjson'],
  examples: ['svc audit tail', 'svc audit tail --interval 30 --since 2026-01-31T00:00:00Z'],
  load: async () => (await import('../handlers/audit.js')).auditTail,
});
