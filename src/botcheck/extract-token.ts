/** Name of the hidden form field (and JSON key) that carries the verification token. */
export const TOKEN_FIELD = 'svc-verification-token';

function single(values: readonly unknown[]): string | undefined {
  const strings = values.filter((v): v is string => typeof v === 'string');
  // Two different values are ambiguous: take none rather than guess.
  if (strings.length === 0 || new Set(strings).size > 1 || strings.length !== values.length) return undefined;
  return strings[0];
}

/**
 * Reads `svc-verification-token` from a request body: `URLSearchParams`, `FormData` (a file field
 * of that name is not a token), an urlencoded or JSON string or buffer, or an already parsed object (`express.urlencoded()`, `express.json()`, fastify's
 * parsers). Returns undefined when absent, not a string, or given twice with different values.
 *
 * @example
 * const outcome = await client.botCheck.verify(extractToken(req.body));
 */
export function extractToken(body: unknown): string | undefined {
  if (body === null || body === undefined) return undefined;
  if (body instanceof URLSearchParams) return single(body.getAll(TOKEN_FIELD));
  // A file field is not a string, so `single` refuses it.
  if (typeof FormData === 'function' && body instanceof FormData) return single(body.getAll(TOKEN_FIELD));
  if (body instanceof Uint8Array) return extractToken(new TextDecoder().decode(body));
  if (typeof body === 'string') {
    const text = body.trim();
    if (text.startsWith('{')) {
      try {
        return extractToken(JSON.parse(text));
      } catch {
        return undefined;
      }
    }
    return single(new URLSearchParams(text).getAll(TOKEN_FIELD));
  }
  if (typeof body === 'object' && !Array.isArray(body)) {
    const value = (body as Record<string, unknown>)[TOKEN_FIELD];
    return Array.isArray(value) ? single(value) : single(value === undefined ? [] : [value]);
  }
  return undefined;
}
