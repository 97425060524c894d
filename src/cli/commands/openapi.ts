import { Option } from '@commander-js/extra-typings';
import { defineCommand } from '../command.js';
import { EXIT } from '../exit-codes.js';

/**
 * `svc openapi`: the OpenAPI 3.1 document of the four APIs as JSON; with `--admin`, the document of
 * the reference server's admin API (a separate document: the service has no such API). The
 * documents load only when it runs.
 */
export const openApiCommand = defineCommand({
  path: 'openapi',
  summary: 'print the OpenAPI 3.1 document of the four APIs (JSON)',
  configure: (command) =>
    command.addOption(new Option('--admin', "print the reference server's admin API document instead")),
  outputs: ['json'],
  examples: ['svc openapi > openapi.json', 'svc openapi | jq ".paths | keys"'],
  load: async () => async (ctx, opts) => {
    const document = opts.admin
      ? (await import('../../server/admin-openapi.js')).buildAdminOpenApiDocument()
      : (await import('../../openapi/document.js')).buildOpenApiDocument();
    await ctx.out.data(`${JSON.stringify(document, null, 2)}\n`);
    return EXIT.OK;
  },
});
