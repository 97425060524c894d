import { VERSION } from '../../version.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../exit-codes.js';

/** `svc version`: prints the package version on stdout, as `svc --version` does. */
export const versionCommand = defineCommand({
  path: 'version',
  summary: 'print the version',
  outputs: [],
  examples: ['svc version', 'svc --version'],
  load: async () => (ctx) => {
    ctx.out.line(VERSION);
    return EXIT.OK;
  },
});
