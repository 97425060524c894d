import { defineCommand } from '../command.js';
import { auditSyncOptions } from '../options/audit-sync-options.js';

/** `svc audit sync`: its handler (audit-sync.ts, and the archive and S3 store behind it) loads when it runs. */
export const auditSyncCommand = defineCommand({
  path: 'audit sync',
  summary:
    'everything new since the last run into DIR: one NDJSON file and one hash-chained manifest per run; resumable',
  configure: auditSyncOptions,
  outputs: [],
  examples: [
    'svc audit sync --dir audit/ --gzip --sign-key sync.key',
    'svc audit sync --dir audit/ --backfill --sign-key sync.key  # repair gaps',
    'svc audit sync --projects projects.json --parallel 4',
  ],
  load: async () => (await import('../handlers/audit-sync.js')).auditSync,
});
