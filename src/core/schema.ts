import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { lazySchema } from './lazy-schema.js';

// zod/mini's object schemas, under the names the wire schemas use.
export { looseObject, object, strictObject } from 'zod/mini';
export { openEnum } from './open-enum.js';
export { parseRequest, parseResponse } from './parse.js';

// The wire schemas are zod/mini schemas (the root entry loads no classic zod: classic's methods
// reach nearly all of zod, some 130 KB more to compile at `import('svc-sdk')`). The helpers below
// are classic zod's methods of the same name, step for step, so that the OpenAPI document built
// from these schemas is the one classic zod built.

/**
 * Makes zod's messages English, as classic zod does when it builds its first schema: a refused
 * value reads "Too big: expected string to have <=255 characters", not zod/mini's bare "Invalid
 * input". Leaves a locale someone configured alone (dist/web shares the app's zod).
 */
export function useEnglishMessages(): void {
  if (!z.config().localeError) z.config(en());
}

/** A wire schema built on first use ({@link lazySchema}), with English messages ({@link useEnglishMessages}). */
export function wireSchema<S>(build: () => S): () => S {
  return lazySchema(() => {
    useEnglishMessages();
    return build();
  });
}

/** `schema.meta(data)` of classic zod: a copy of `schema` with `data` in zod's global registry (the OpenAPI document reads it). */
export function meta<T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy;
}

/**
 * An ISO 8601 timestamp with a zone (`Z` or `+hh:mm`), fractions allowed: `format: date-time` in
 * the document. A response with another value is malformed. Pass the description here, or on the
 * outermost wrapper (`meta(z.nullable(...), ...)`) so the document shows it on the property.
 */
export function timestamp(description?: string) {
  const schema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a zone' });
  return description === undefined ? schema : meta(schema, { description });
}
