/**
 * Builds a URL path from a template, escaping every interpolated value, so user input can never
 * add a path segment or a query string: path`/schedules/${id}`.
 */
export function path(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += encodeURIComponent(String(values[i])) + (strings[i + 1] ?? '');
  }
  return out;
}
