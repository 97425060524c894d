import { defineCommand } from '../command.js';
import { auditExportOptions } from '../options/audit-export-options.js';

/** `svc audit export`: its handler (audit-export.ts, and the exporter behind it) loads when it runs. */
export const auditExportCommand = defineCommand({
  path: 'audit export',
  summary: 'every event of the range as NDJSON, newest first, exactly as received; resumable',
  configure: auditExportOptions,
  outputs: ['ndjson'],
  examples: [
    'svc audit export --from 2026-01-01 --out events.ndjson',
    'svc audit export --from 2026-01-01 --out events.ndjson.gz --gzip',
    'svc audit export --out events.ndjson    # again after exit 75: resumes',
  ],
  load: async () => (await import('../handlers/audit-export.js')).auditExport,
});
