/**
 * Reads an audit page's JSON text without building objects for its events: each event is kept as
 * the exact text the server sent (so the export writes it byte for byte, "as received"), and only
 * its `id` and the envelope's small fields are decoded. Returns undefined when the text is not in
 * the expected shape, and the caller falls back to `JSON.parse`.
 */

/** One event as received. */
export interface RawEvent {
  /** The event's JSON text, exactly as in the response. */
  text: string;
  /** Its `id`, when it is a string. */
  id: string | undefined;
}

/** The page: envelope fields decoded, events raw. */
export interface ScannedPage {
  envelope: Record<string, unknown>;
  events: RawEvent[];
}

const QUOTE = 34;
const BACKSLASH = 92;

function skipSpace(t: string, i: number): number {
  let c = t.charCodeAt(i);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++i);
  return i;
}

/** Index just past the string starting at `i` (a quote), or -1. */
function skipString(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the value starting at `i`, or -1. */
function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return skipString(t, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t.charCodeAt(j);
      if (d === QUOTE) {
        j = skipString(t, j) - 1;
        if (j < 0) return -1;
      } else if (d === 123 || d === 91) depth++;
      else if (d === 125 || d === 93) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < t.length) {
    const d = t.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) break;
    j++;
  }
  return j > i ? j : -1;
}

/** The `id` member of the event object at `i` (its value when a string), scanning only its top level. */
function eventId(t: string, start: number, end: number): string | undefined {
  let i = skipSpace(t, start + 1);
  while (i < end && t.charCodeAt(i) === QUOTE) {
    const keyEnd = skipString(t, i);
    if (keyEnd < 0) return undefined;
    const isId = keyEnd - i === 4 && t.startsWith('"id"', i);
    i = skipSpace(t, keyEnd);
    if (t.charCodeAt(i) !== 58) return undefined;
    i = skipSpace(t, i + 1);
    const valueEnd = skipValue(t, i);
    if (valueEnd < 0) return undefined;
    if (isId) return t.charCodeAt(i) === QUOTE ? (JSON.parse(t.slice(i, valueEnd)) as string) : undefined;
    i = skipSpace(t, valueEnd);
    if (t.charCodeAt(i) === 44) i = skipSpace(t, i + 1);
  }
  return undefined;
}

/** Scans a page; undefined when the text is not a JSON object with a `content` array. */
export function scanEventPage(t: string): ScannedPage | undefined {
  const envelope: Record<string, unknown> = {};
  const events: RawEvent[] = [];
  let sawContent = false;
  let i = skipSpace(t, 0);
  if (t.charCodeAt(i) !== 123) return undefined;
  i = skipSpace(t, i + 1);
  while (t.charCodeAt(i) === QUOTE) {
    const keyEnd = skipString(t, i);
    if (keyEnd < 0) return undefined;
    const key = JSON.parse(t.slice(i, keyEnd)) as string;
    i = skipSpace(t, keyEnd);
    if (t.charCodeAt(i) !== 58) return undefined;
    i = skipSpace(t, i + 1);
    if (key === 'content') {
      if (t.charCodeAt(i) !== 91) return undefined;
      sawContent = true;
      i = skipSpace(t, i + 1);
      while (t.charCodeAt(i) !== 93) {
        const end = skipValue(t, i);
        if (end < 0) return undefined;
        let text = t.slice(i, end);
        const isObject = t.charCodeAt(i) === 123;
        // A pretty-printed event would break NDJSON: compact it (line breaks outside strings only).
        if (text.includes('\n') || text.includes('\r')) text = JSON.stringify(JSON.parse(text));
        events.push({ text, id: isObject ? eventId(t, i, end) : undefined });
        i = skipSpace(t, end);
        if (t.charCodeAt(i) === 44) i = skipSpace(t, i + 1);
        else if (t.charCodeAt(i) !== 93) return undefined;
      }
      i = skipSpace(t, i + 1);
    } else {
      const end = skipValue(t, i);
      if (end < 0) return undefined;
      envelope[key] = JSON.parse(t.slice(i, end));
      i = skipSpace(t, end);
    }
    if (t.charCodeAt(i) === 44) i = skipSpace(t, i + 1);
  }
  if (t.charCodeAt(i) !== 125 || !sawContent) return undefined;
  if (skipSpace(t, i + 1) !== t.length) return undefined;
  return { envelope, events };
}
