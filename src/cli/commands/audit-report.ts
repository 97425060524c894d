import { defineCommand } from '../command.js';
import { auditReportOptions } from '../options/audit-report-options.js';

/** `svc audit report NAME [QUERY...]`: its handler (audit-report.ts) loads when it runs. */
export const auditReportCommand = defineCommand({
  path: 'audit report',
  summary:
    'ready-made reports (changes, sign-ins, api-keys, timeline SUBJECT, actors) as a table, CSV, JSON or one page with a chart',
  configure: auditReportOptions,
  outputs: ['table', 'json', 'csv'],
  examples: [
    'svc audit report sign-ins --dir audit/ occurred:2026-11',
    'svc audit report changes --dir s3://acme/audit --html changes.html',
    'svc audit report timeline "Demo captcha" --dir audit/ -o csv > demo.csv',
  ],
  load: async () => (await import('../handlers/audit-report.js')).auditReport,
});
