import { defineCommand } from '../command.js';
import { auditVerifyOptions } from '../options/audit-verify-options.js';

/** `svc audit verify DIR`: its handler (audit-verify.ts) loads when it runs. */
export const auditVerifyCommand = defineCommand({
  path: 'audit verify',
  summary:
    're-hash the files of a sync archive, walk its manifest chain, check counts and gaps; exit 0 only when whole',
  configure: auditVerifyOptions,
  outputs: ['json'],
  examples: [
    'svc audit verify audit/ --public-key sync.pub',
    'svc audit verify audit/ --head "$HEAD" --max-age 36h  # HEAD: from the sync',
    'svc audit verify audit/ -o json',
  ],
  load: async () => (await import('../handlers/audit-verify.js')).auditVerify,
});
