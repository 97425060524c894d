import { buildOpenApiDocument } from '../../openapi/document.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';

/** `svc openapi`: the OpenAPI 3.1 document of the four APIs as JSON. */
export async function openapi(ctx: CommandContext): Promise<number> {
  ctx.io.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  return EXIT.OK;
}
