import { extractToken } from './extract-token.js';

const MULTIPART = /^\s*multipart\/form-data\s*(?:;|$)/i;

/** Whether a `Content-Type` announces a `multipart/form-data` body. */
export function isMultipart(contentType: string | undefined): contentType is string {
  return contentType !== undefined && MULTIPART.test(contentType);
}

/**
 * The token field of a `multipart/form-data` body already read within the body limit, parsed by
 * the runtime's own parser (`Response.formData()`: Node 20+, Deno, Bun, workerd, edge runtimes),
 * so the limit holds before any parsing and no parser of ours runs. A file field named like the
 * token is not a token; undefined when the field is absent or given twice with different values.
 *
 * @throws {TypeError} the body is not valid multipart for its boundary (a missing or hostile
 *   boundary, a truncated part).
 */
export async function multipartToken(bytes: Uint8Array, contentType: string): Promise<string | undefined> {
  const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { 'content-type': contentType },
  }).formData();
  return extractToken(form);
}
