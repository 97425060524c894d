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

const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');

/**
 * A test that an archived line (its bytes) cannot match `query`, or undefined when no line can be
 * ruled out without parsing it (a group of the query has no positive text value to look for).
 */
export function cannotMatch(query: AuditQuery): ((line: Buffer) => boolean) | undefined {
  const groups: RegExp[][] = [];
  for (const group of query.groups) {
    const needed: RegExp[] = [];
    for (const term of group) {
      if (term.negated || term.qualifier === 'occurred' || term.test.kind === 'present') continue;
      if (PLAIN.test(term.test.value) && term.test.value !== '') needed.push(literal(term.test.value));
    }
    // A group with nothing to look for may match any line.
    if (needed.length === 0) return undefined;
    groups.push(needed);
  }
  if (groups.length === 0) return undefined;
  return (line) => {
    if (line.indexOf(BACKSLASH) !== -1 || line.indexOf(DOTTED_I) !== -1 || line.indexOf(KELVIN) !== -1)
      return false;
    // Each byte one character: the ASCII ones as they are, the others never equal to ASCII.
    const text = line.toString('latin1');
    return groups.every((needed) => needed.some((re) => !re.test(text)));
  };
}
