import { LocalValidationError } from './errors/error-classes.js';

/**
 * Builds a URL path from a template, escaping every interpolated value, so user input can never
 * add a path segment or a query string: path`/schedules/${id}`.
 */
export function path(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const value = String(values[i]);
    // URL parsing collapses "." and ".." segments (in any spelling), which would address another resource.
    if (value === '.' || value === '..') {
      throw new LocalValidationError([{ path: 'path', message: `'${value}' is not a valid id` }]);
    }
    // A lone surrogate cannot be encoded (encodeURIComponent throws URIError): refused, nothing sent.
    if (/\p{Cs}/u.test(value)) {
      throw new LocalValidationError([
        { path: 'path', message: 'an id must not contain a lone surrogate (invalid Unicode)' },
      ]);
    }
    out += encodeURIComponent(value) + (strings[i + 1] ?? '');
  }
  return out;
}
