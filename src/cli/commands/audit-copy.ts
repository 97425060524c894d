import { defineCommand } from '../command.js';
import { auditCopyOptions } from '../options/audit-copy-options.js';

/** `svc audit copy SRC DST`: its handler (audit-copy.ts, and the S3 store behind it) loads when it runs. */
export const auditCopyCommand = defineCommand({
  path: 'audit copy',
  summary:
    "copy a sync archive between a directory and a bucket, object for object, each read back and compared (sha256); only the archive's objects (anything else is named and left)",
  configure: auditCopyOptions,
  outputs: [],
  examples: [
    'svc audit copy audit/ s3://audit-archive/nightly  # folder into a bucket',
    'svc audit copy s3://audit-archive/nightly restored/ --s3-region eu-west-1',
    'svc audit copy audit/ s3://locked/nightly --retain-days 400',
  ],
  load: async () => (await import('../handlers/audit-copy.js')).auditCopy,
});
