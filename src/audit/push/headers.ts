// Reading a pushed request's headers from either shape a receiver holds: a Fetch `Headers` (Workers,
// Deno, Bun, undici) or a plain record (Node's `IncomingHttpHeaders`, Express, Fastify).

/**
 * The headers of a pushed request: a Fetch `Headers`, or a record of names to values as Node,
 * Express and Fastify give them. Names are matched case-insensitively in both.
 */
export type PushHeaders = Headers | Record<string, string | string[] | undefined>;

/** Every value of the header `name` (lowercase), one entry per header line the record kept. */
export function headerValues(headers: PushHeaders, name: string): string[] {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return values;
}

/** The one value of `name`; `undefined` when absent, `null` when it came more than once. */
export function singleHeader(headers: PushHeaders, name: string): string | undefined | null {
  const values = headerValues(headers, name);
  if (values.length > 1) return null;
  return values[0];
}
