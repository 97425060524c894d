/** Reads an error body of any shape: JSON when it parses, the raw text otherwise. */
export function parseErrorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const MESSAGE_FIELDS = ['detail', 'message', 'error', 'title'] as const;
const MAX_DETAIL = 300;

/**
 * The human message of an error body: `detail`, `message`, `error` or `title` (first that is a
 * non-empty string; `error` may itself be an object with a message), else short raw text.
 * Returned on one line and bounded, since it ends up in a one-line CLI error.
 */
export function errorDetail(body: unknown, depth = 0): string | undefined {
  let found: string | undefined;
  if (typeof body === 'string') {
    found = body.trimStart().startsWith('<') ? undefined : body;
  } else if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const field of MESSAGE_FIELDS) {
      const value = record[field];
      if (typeof value === 'string' && value.trim() !== '') {
        found = value;
        break;
      }
      // Bounded: a hostile body nested thousands deep must not exhaust the stack.
      if (value && typeof value === 'object' && depth < 4) {
        const nested = errorDetail(value, depth + 1);
        if (nested) {
          found = nested;
          break;
        }
      }
    }
  }
  if (found === undefined) return undefined;
  const oneLine = oneLineSafe(found);
  if (oneLine === '') return undefined;
  return bounded(oneLine, MAX_DETAIL);
}

const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/**
 * `text` on one line with whitespace runs collapsed and every other control character (C0, DEL,
 * C1, so also terminal escape sequences) shown as a `\uXXXX` escape.
 */
function oneLineSafe(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const MAX_PROBLEMS = 10;
const MAX_PROBLEM = 120;
const MAX_PROBLEM_LIST = 600;

/**
 * The `errors` array of a problem body (422) as one bounded line: `path: message; path: message`,
 * at most 10 entries (then `(and N more)`), each escaped and shortened. Undefined when the body
 * lists none.
 */
export function problemList(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  const parts: string[] = [];
  let listed = 0;
  for (const entry of errors) {
    if (!entry || typeof entry !== 'object') continue;
    const { path, message } = entry as { path?: unknown; message?: unknown };
    const text = typeof message === 'string' ? oneLineSafe(message) : '';
    const where =
      typeof path === 'string' ? oneLineSafe(path) : Array.isArray(path) ? oneLineSafe(path.join('.')) : '';
    if (!text && !where) continue;
    listed++;
    if (parts.length < MAX_PROBLEMS)
      parts.push(bounded(where ? `${where}: ${text || 'invalid'}` : text, MAX_PROBLEM));
  }
  if (parts.length === 0) return undefined;
  const more = listed > parts.length ? ` (and ${listed - parts.length} more)` : '';
  return bounded(parts.join('; '), MAX_PROBLEM_LIST) + more;
}
