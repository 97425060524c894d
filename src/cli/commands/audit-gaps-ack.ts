import { defineCommand } from '../command.js';
import { auditGapsAckOptions } from '../options/audit-gaps-options.js';

/** `svc audit gaps ack GAP`: its handler (audit-gaps.ts) loads when it runs. */
export const auditGapsAckCommand = defineCommand({
  path: 'audit gaps ack',
  summary: "acknowledge a gap that cannot be repaired; recorded (and signed) in the next run's manifest",
  configure: auditGapsAckOptions,
  outputs: [],
  examples: [
    'svc audit gaps ack run3.late1 --reason "expired" --dir audit/',
    'svc audit gaps ack run5.conflicts --reason "checked by hand" --dir audit/',
  ],
  load: async () => (await import('../handlers/audit-gaps.js')).auditGapsAck,
});
