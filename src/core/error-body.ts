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
  const oneLine = found.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return undefined;
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL - 3)}...` : oneLine;
}
