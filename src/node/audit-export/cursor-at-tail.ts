import { BACKSLASH, CLOSE_OBJECT, COLON, isSpace, QUOTE } from './json-bytes.js';

const NEXT_CURSOR_KEY = new TextEncoder().encode('"nextCursor"');

/**
 * A guess at a page's `nextCursor`, read from its last bytes without scanning the page: the value
 * when the body ends with a `"nextCursor"` member holding a plain string (no escapes, no control
 * characters), `null` when it ends with `"nextCursor": null`, undefined for anything else. Only a
 * guess: a hostile page can put these bytes inside a string; `scanEventPage` (raw-page.ts) has the truth.
 */
export function cursorAtTail(t: Uint8Array): string | null | undefined {
  let i = t.length - 1;
  while (i >= 0 && isSpace(t[i])) i--;
  if (t[i] !== CLOSE_OBJECT) return undefined;
  i--;
  while (i >= 0 && isSpace(t[i])) i--;
  let value: string | null;
  let valueStart: number;
  if (t[i] === QUOTE) {
    const end = i;
    i--;
    while (i >= 0 && t[i] !== QUOTE) {
      const c = t[i] as number;
      if (c === BACKSLASH || c < 0x20) return undefined;
      i--;
    }
    if (i < 0) return undefined;
    valueStart = i;
    value = Buffer.from(t.buffer, t.byteOffset + i + 1, end - i - 1).toString('utf8');
  } else if (i >= 3 && t[i] === 108 && t[i - 1] === 108 && t[i - 2] === 117 && t[i - 3] === 110) {
    valueStart = i - 3;
    value = null;
  } else return undefined;
  i = valueStart - 1;
  while (i >= 0 && isSpace(t[i])) i--;
  if (t[i] !== COLON) return undefined;
  i--;
  while (i >= 0 && isSpace(t[i])) i--;
  const keyStart = i - NEXT_CURSOR_KEY.length + 1;
  if (keyStart < 0) return undefined;
  for (let k = 0; k < NEXT_CURSOR_KEY.length; k++)
    if (t[keyStart + k] !== NEXT_CURSOR_KEY[k]) return undefined;
  return value;
}
