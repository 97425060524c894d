/**
 * Reads an audit page's JSON bytes without building objects for its events: each event stays the
 * exact bytes the server sent (so the export writes it byte for byte, "as received"), and only
 * its `id` and the envelope's small fields are decoded. Working on bytes keeps a page out of the
 * JavaScript heap. Structural characters are ASCII, and UTF-8 never uses bytes below 0x80 inside
 * a multi-byte character, so scanning bytes is exact. Returns undefined when the body is not in
 * the expected shape; the caller then falls back to `JSON.parse`.
 */

/** One event as received. */
export interface RawEvent {
  /** Where the event's JSON lies in the page bytes. */
  start: number;
  end: number;
  /** Its `id`, when it is a string. */
  id: string | undefined;
}

/** The page: envelope fields decoded, events as byte ranges of `bytes`. */
export interface ScannedPage {
  bytes: Uint8Array;
  envelope: Record<string, unknown>;
  events: RawEvent[];
}

const QUOTE = 34;
const BACKSLASH = 92;
const decoder = new TextDecoder();

function skipSpace(t: Uint8Array, i: number): number {
  let c = t[i];
  while (c === 32 || c === 10 || c === 13 || c === 9) c = t[++i];
  return i;
}

/** Index just past the string starting at `i` (a quote), or -1. */
function skipString(t: Uint8Array, i: number): number {
  // indexOf runs natively; a quote closes the string unless an odd number of backslashes precede it.
  for (let j = i + 1; ; ) {
    const q = t.indexOf(QUOTE, j);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k > i && t[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just past the value starting at `i`, or -1. */
function skipValue(t: Uint8Array, i: number): number {
  const c = t[i];
  if (c === QUOTE) return skipString(t, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t[j];
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
    const d = t[j];
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) break;
    j++;
  }
  return j > i ? j : -1;
}

const json = (t: Uint8Array, start: number, end: number): unknown =>
  JSON.parse(decoder.decode(t.subarray(start, end)));

/** The `id` member of the event object at `start` (when a string), scanning only its top level. */
function eventId(t: Uint8Array, start: number, end: number): string | undefined {
  let i = skipSpace(t, start + 1);
  while (i < end && t[i] === QUOTE) {
    const keyEnd = skipString(t, i);
    if (keyEnd < 0) return undefined;
    const isId = keyEnd - i === 4 && t[i + 1] === 105 && t[i + 2] === 100;
    i = skipSpace(t, keyEnd);
    if (t[i] !== 58) return undefined;
    i = skipSpace(t, i + 1);
    const valueEnd = skipValue(t, i);
    if (valueEnd < 0) return undefined;
    if (isId) return t[i] === QUOTE ? (json(t, i, valueEnd) as string) : undefined;
    i = skipSpace(t, valueEnd);
    if (t[i] === 44) i = skipSpace(t, i + 1);
  }
  return undefined;
}

/** Whether the event bytes hold a line break (a pretty-printed event; line breaks inside strings are escaped). */
export function hasLineBreak(t: Uint8Array, start: number, end: number): boolean {
  const event = t.subarray(start, end);
  return event.indexOf(10) >= 0 || event.indexOf(13) >= 0;
}

/** Scans a page; undefined when the body is not a JSON object with a `content` array. */
export function scanEventPage(t: Uint8Array): ScannedPage | undefined {
  const envelope: Record<string, unknown> = {};
  const events: RawEvent[] = [];
  let sawContent = false;
  let i = skipSpace(t, 0);
  if (t[i] !== 123) return undefined;
  i = skipSpace(t, i + 1);
  try {
    while (t[i] === QUOTE) {
      const keyEnd = skipString(t, i);
      if (keyEnd < 0) return undefined;
      const key = json(t, i, keyEnd) as string;
      i = skipSpace(t, keyEnd);
      if (t[i] !== 58) return undefined;
      i = skipSpace(t, i + 1);
      if (key === 'content') {
        if (t[i] !== 91) return undefined;
        sawContent = true;
        i = skipSpace(t, i + 1);
        while (t[i] !== 93) {
          const end = skipValue(t, i);
          if (end < 0) return undefined;
          events.push({ start: i, end, id: t[i] === 123 ? eventId(t, i, end) : undefined });
          i = skipSpace(t, end);
          if (t[i] === 44) i = skipSpace(t, i + 1);
          else if (t[i] !== 93) return undefined;
        }
        i = skipSpace(t, i + 1);
      } else {
        const end = skipValue(t, i);
        if (end < 0) return undefined;
        envelope[key] = json(t, i, end);
        i = skipSpace(t, end);
      }
      if (t[i] === 44) i = skipSpace(t, i + 1);
    }
  } catch {
    // A member that JSON.parse refuses: not a page this scanner can vouch for.
    return undefined;
  }
  if (t[i] !== 125 || !sawContent) return undefined;
  if (skipSpace(t, i + 1) !== t.length) return undefined;
  return { bytes: t, envelope, events };
}
