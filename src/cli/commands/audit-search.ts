import { defineCommand } from '../command.js';
import { auditSearchOptions } from '../options/audit-search-options.js';

/** `svc audit search [QUERY...]`: its handler (audit-search.ts) loads when it runs. */
export const auditSearchCommand = defineCommand({
  path: 'audit search',
  summary:
    'events matching GitHub-style qualifiers, from an archive (each file checked against its manifest) or the API; a footer says what was read',
  configure: auditSearchOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc audit search --dir audit/ actor.type:API_KEY occurred:2026-11',
    "svc audit search --dir s3://acme/audit 'ip:*' -o csv --bom > sign-ins.csv",
    'svc audit search subject:demo --from 2026-11-30T00:00:00Z  # the API',
  ],
  load: async () => (await import('../handlers/audit-search.js')).auditSearch,
});
