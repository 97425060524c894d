import { buildOpenApiDocument } from '../../openapi/document.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';

/**
 * `svc openapi`: the OpenAPI 3.1 document of the four APIs as JSON; with `--admin`, the document of
 * the reference server's admin API (a separate document: the service has no such API).
 */
export async function openapi(ctx: CommandContext, opts: { admin?: boolean } = {}): Promise<number> {
  const document = opts.admin
    ? (await import('../../server/admin-openapi.js')).buildAdminOpenApiDocument()
    : buildOpenApiDocument();
  await ctx.out.data(`${JSON.stringify(document, null, 2)}\n`);
  return EXIT.OK;
}
