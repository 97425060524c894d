import type { AuditQuery } from '../../audit/search/query.js';

// A fast first look at an archived line (its UTF-8 bytes) before it is parsed: a line can only
// match a group of terms when the text of each of its positive `equals` and `prefix` values
// appears in it, in any ASCII case. It only ever says "cannot match" when that is certain; every
// line it lets through is parsed and matched exactly (match.ts). Why that holds:
// - the values looked for are printable ASCII without `"` or `\`, so JSON writes them as they are;
// - a line with a backslash may hold an escape (`\u0041` is `A`): it is never ruled out;
// - lower-casing, as the matcher compares, turns only two characters outside ASCII into ASCII
//   (U+0130 into `i` and a combining dot, U+212A KELVIN SIGN into `k`): a line holding either is
//   never ruled out; every other byte outside ASCII belongs to a character that matches no ASCII
//   letter, and a case-insensitive search without the `u` flag folds no such character to ASCII.

/** A value that JSON writes as it is, ASCII only: printable, no `"`, no `\`. */
const PLAIN = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
/** Bytes after which a line is parsed whatever it holds: a backslash, U+0130 and U+212A in UTF-8. */
const BACKSLASH = 0x5c;
const DOTTED_I = Buffer.from('\u0130');
const KELVIN = Buffer.from('\u212a');

const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');

/** Where the next occurrence of something lies in a block, at or after a position. */
type Cursor = (from: number) => number;

/** The next match of a global regular expression in `text`, found once for every later position before it. */
function regexCursor(re: RegExp, text: string): Cursor {
  let next = -1;
  return (from) => {
    if (next >= from || next === Number.POSITIVE_INFINITY) return next;
    re.lastIndex = from;
    const found = re.exec(text);
    next = found ? found.index : Number.POSITIVE_INFINITY;
    return next;
  };
}

/** The next occurrence of `needle` in `bytes`, found once for every later position before it. */
function bytesCursor(bytes: Buffer, needle: number | Buffer): Cursor {
  let next = -1;
  return (from) => {
    if (next >= from || next === Number.POSITIVE_INFINITY) return next;
    const at = bytes.indexOf(needle, from);
    next = at === -1 ? Number.POSITIVE_INFINITY : at;
    return next;
  };
}

/**
 * A first look at the lines of one block of archived bytes: `mayMatch(start, end)` is false only
 * when the line `bytes[start, end)` certainly cannot match. Lines are asked about in order.
 */
export type LineLook = (start: number, end: number) => boolean;

/**
 * For a block of whole lines (their UTF-8 bytes), the first look at each of its lines for `query`;
 * undefined when no line can be ruled out without parsing it (a group of the query has no positive
 * text value to look for). The block is scanned once for each value, not once for each line: a
 * value looked for never holds a line break, so an occurrence found at or after a line's start and
 * before its end lies within that line.
 */
export function prefilter(query: AuditQuery): ((bytes: Buffer) => LineLook) | undefined {
  const groups: string[][] = [];
  for (const group of query.groups) {
    const needed: string[] = [];
    for (const term of group) {
      if (term.negated || term.qualifier === 'occurred' || term.test.kind === 'present') continue;
      if (PLAIN.test(term.test.value) && term.test.value !== '') needed.push(term.test.value);
    }
    // A group with nothing to look for may match any line.
    if (needed.length === 0) return undefined;
    groups.push(needed);
  }
  if (groups.length === 0) return undefined;
  const patterns = groups.map((needed) => needed.map(literal));
  return (bytes) => {
    // Each byte one character: the ASCII ones as they are, the others never equal to ASCII.
    const text = bytes.toString('latin1');
    const values = patterns.map((group) => group.map((re) => regexCursor(re, text)));
    const always = [BACKSLASH, DOTTED_I, KELVIN].map((needle) => bytesCursor(bytes, needle));
    return (start, end) =>
      always.some((next) => next(start) < end) ||
      values.some((group) => group.every((next) => next(start) < end));
  };
}
