import { defineCommand } from '../command.js';
import { auditReceiveOptions } from '../options/audit-receive-options.js';

/** `svc audit receive`: its handler (audit-receive.ts, and the receiver behind it) loads when it runs. */
export const auditReceiveCommand = defineCommand({
  path: 'audit receive',
  summary:
    "receive the audit log's push variant into an archive: verified, written durably before the 2xx, reconciled by the next sync",
  configure: auditReceiveOptions,
  outputs: ['ndjson'],
  examples: [
    'svc audit receive --dir audit/ --port 8788',
    'SVC_PUSH_SECRET=whsec_... svc audit receive --dir audit/ --host 0.0.0.0',
    'svc audit receive --dir s3://acme-audit/main --port 8788 -o ndjson',
  ],
  load: async () => (await import('../handlers/audit-receive.js')).auditReceive,
});
