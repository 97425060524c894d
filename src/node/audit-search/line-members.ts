// Some members of an archived line's JSON object, parsed without parsing the rest. A search
// reads each matching line to confirm the match, and parsing the whole event (about 700 bytes,
// a dozen objects) cost most of a search's time and most of its garbage; the members a query
// reads (match.ts, `membersRead`) are a few small values. The line's top level is walked over
// its bytes, each wanted member's value is cut out and given to
// JSON.parse, and the others are stepped over.
//
// What it gives equals what JSON.parse of the whole line gives for those members: a member given
// twice is the last one, as in JSON.parse. A line it cannot walk this way (a key with an escape,
// a top level that is not one object, bytes out of place) is `undefined`: the caller parses the
// whole line then, and a line that is no JSON fails there. Values of members not wanted are
// stepped over, not checked: the lines read are those of data files that matched their
// manifest's sha256, written by sync from events it had checked.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

function skipSpace(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && isSpace(bytes[i])) i += 1;
  return i;
}

/**
 * Past the string that opens at `at` (a `"`), or -1 when it does not close before `end`. A plain
 * loop over the bytes: a native call per string (indexOf) costs more than the string's bytes.
 */
function skipString(bytes: Uint8Array, at: number, end: number): number {
  for (let i = at + 1; i < end; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) return i + 1;
    if (byte === BACKSLASH) i += 1;
  }
  return -1;
}

/** Past the value that starts at `at` (no space before it), or -1. */
function skipValue(bytes: Uint8Array, at: number, end: number): number {
  const first = bytes[at];
  if (first === QUOTE) return skipString(bytes, at, end);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < end; i += 1) {
      const byte = bytes[i];
      if (byte === QUOTE) {
        const after = skipString(bytes, i, end);
        if (after === -1) return -1;
        i = after - 1;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next comma, bracket or space.
  let i = at;
  while (i < end) {
    const byte = bytes[i];
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) break;
    i += 1;
  }
  return i > at ? i : -1;
}

/** Which wanted name the key `bytes[start, end)` (without its quotes) is, or -1. */
function wantedIndex(bytes: Uint8Array, start: number, end: number, wanted: readonly Buffer[]): number {
  const length = end - start;
  for (let w = 0; w < wanted.length; w += 1) {
    const name = wanted[w] as Buffer;
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && name[k] === bytes[start + k]) k += 1;
    if (k === length) return w;
  }
  return -1;
}

/** The members a reader wants of each line ({@link lineReader}). */
export interface LineReader {
  /** Each member's name, as the bytes keys are compared with. */
  names: readonly Buffer[];
  /** The same names as text, the keys of what is given. */
  keys: readonly string[];
  /** Whether the member's value is parsed and given (else it is only checked to be a string). */
  parsed: readonly boolean[];
}

/**
 * What {@link lineMembers} reads of a line: the members `parse` names are parsed and given; the
 * members `strings` names must be JSON strings (a line without them is read whole).
 */
export function lineReader(parse: readonly string[], strings: readonly string[]): LineReader {
  const all = [...new Set([...strings, ...parse])];
  return {
    names: all.map((name) => Buffer.from(name, 'utf8')),
    keys: all,
    parsed: all.map((name) => parse.includes(name)),
  };
}

/**
 * The members `reader` parses of the JSON object `bytes[start, end)`, each from its own bytes; a
 * member the line lacks is absent. Undefined when the line cannot be read this way, or lacks a
 * string member the reader requires: parse it whole then.
 */
export function lineMembers(
  bytes: Buffer,
  start: number,
  end: number,
  reader: LineReader,
): Record<string, unknown> | undefined {
  const { names: wanted, parsed, keys } = reader;
  const spans: Array<[number, number] | undefined> = new Array(wanted.length);
  let i = skipSpace(bytes, start, end);
  if (bytes[i] !== OPEN_BRACE) return undefined;
  i = skipSpace(bytes, i + 1, end);
  if (bytes[i] === CLOSE_BRACE) i += 1;
  else
    for (;;) {
      if (bytes[i] !== QUOTE) return undefined;
      const keyEnd = skipString(bytes, i, end);
      if (keyEnd === -1) return undefined;
      // A key with an escape may spell a wanted name another way: the whole line is parsed then.
      for (let k = i + 1; k < keyEnd - 1; k += 1) if (bytes[k] === BACKSLASH) return undefined;
      const which = wantedIndex(bytes, i + 1, keyEnd - 1, wanted);
      i = skipSpace(bytes, keyEnd, end);
      if (bytes[i] !== COLON) return undefined;
      const valueStart = skipSpace(bytes, i + 1, end);
      const valueEnd = skipValue(bytes, valueStart, end);
      if (valueEnd === -1) return undefined;
      if (which !== -1) spans[which] = [valueStart, valueEnd];
      i = skipSpace(bytes, valueEnd, end);
      if (bytes[i] === COMMA) {
        i = skipSpace(bytes, i + 1, end);
        continue;
      }
      if (bytes[i] !== CLOSE_BRACE) return undefined;
      i += 1;
      break;
    }
  if (skipSpace(bytes, i, end) !== end) return undefined;
  const members: Record<string, unknown> = {};
  for (let w = 0; w < wanted.length; w += 1) {
    const span = spans[w];
    if (!parsed[w]) {
      // A member required as a string: its value must open with a quote.
      if (span === undefined || bytes[span[0]] !== QUOTE) return undefined;
      continue;
    }
    if (span === undefined) continue;
    try {
      members[keys[w] as string] = JSON.parse(bytes.toString('utf8', span[0], span[1]));
    } catch {
      return undefined;
    }
  }
  return members;
}
