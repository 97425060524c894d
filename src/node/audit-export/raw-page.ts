/**
 * Reads an audit page's JSON bytes without building objects for its events: each event stays the
 * exact bytes the server sent (so the export writes it byte for byte, "as received"), and only
 * its `id` and the envelope's small fields are decoded. Working on bytes keeps a page out of the
 * JavaScript heap. Structural characters are ASCII, and UTF-8 never uses bytes below 0x80 inside
 * a multi-byte character, so scanning bytes is exact.
 *
 * The scan validates as it goes: strict JSON (RFC 8259) grammar for every value (strings and
 * their escapes, numbers, `true`/`false`/`null`, commas and colons where they belong) and UTF-8
 * for the whole page, so an event the export writes is always valid JSON, without parsing and
 * serialising each event again. Bytes that are not valid JSON throw {@link MalformedResponseError};
 * valid JSON that is not shaped like a page gives undefined (the caller then parses it and lets
 * the page schema say what is wrong).
 */
import { MalformedResponseError } from '../../core/errors/error-classes.js';
import { nodeBuiltin } from '../fs/builtin.js';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './json-bytes.js';

// Node's native UTF-8 check, looked up on the first page (not when the package loads).
let isUtf8: ((bytes: Uint8Array) => boolean) | undefined;

/** One event as received. */
export interface RawEvent {
  /** Where the event's JSON lies in the page bytes. */
  start: number;
  end: number;
  /** Its `id` and `occurredAt`, when they are strings (as JSON.parse reads them: the last of a repeated key). */
  id: string | undefined;
  occurredAt: string | undefined;
}

/** The page: envelope fields decoded, events as byte ranges of `bytes`. */
export interface ScannedPage {
  bytes: Uint8Array;
  envelope: Record<string, unknown>;
  events: RawEvent[];
}

const decoder = new TextDecoder();

// Results of the last scan, kept in module state so the hot loop allocates nothing.
/** Offset of the first byte that broke the grammar. */
let failAt = 0;
/** Whether the last string scanned held a backslash escape. */
let escaped = false;
/** Range of the `id` member's string value of the last top-level object scanned by `skipValue`, or -1. */
let idStart = -1;
let idEnd = -1;
let idEscaped = false;
/** The same for its `occurredAt` member. */
let occStart = -1;
let occEnd = -1;
let occEscaped = false;
/** Whether a top-level key of that object held an escape (so its members are not known from the bytes). */
let oddKey = false;

const fail = (at: number): number => {
  failAt = at;
  return -1;
};

function skipSpace(t: Uint8Array, i: number): number {
  let c = t[i];
  while (c === 32 || c === 10 || c === 13 || c === 9) c = t[++i];
  return i;
}

const isHex = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102));

/** 1 for the bytes that end a run of plain string characters: a quote, a backslash, a control character. */
const STRING_STOP = new Uint8Array(256);
STRING_STOP.fill(1, 0, 0x20);
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** Index just past the string starting at `i` (a quote), or -1. Sets `escaped`. */
function skipString(t: Uint8Array, i: number): number {
  escaped = false;
  let j = i + 1;
  for (;;) {
    // Plain characters; past the end `t[j]` is undefined and leaves the loop too.
    let c = t[j] as number;
    while (STRING_STOP[c] === 0) c = t[++j] as number;
    if (c === QUOTE) return j + 1;
    if (c !== BACKSLASH) return fail(j); // a control character, or the end of the bytes
    escaped = true;
    const e = t[j + 1];
    if (e === 117) {
      // \uXXXX
      if (!(isHex(t[j + 2]) && isHex(t[j + 3]) && isHex(t[j + 4]) && isHex(t[j + 5]))) return fail(j);
      j += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 47 ||
      e === 98 ||
      e === 102 ||
      e === 110 ||
      e === 114 ||
      e === 116
    ) {
      j += 2;
    } else {
      return fail(j);
    }
  }
}

/** Index just past the number at `i` (strict grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function skipNumber(t: Uint8Array, i: number): number {
  let j = i;
  let c = t[j] as number;
  if (c === 45) c = t[++j] as number;
  if (c === 48) c = t[++j] as number;
  else if (c >= 49 && c <= 57) {
    c = t[++j] as number;
    while (c >= 48 && c <= 57) c = t[++j] as number;
  } else return fail(j);
  if (c === 46) {
    c = t[++j] as number;
    if (!(c >= 48 && c <= 57)) return fail(j);
    while (c >= 48 && c <= 57) c = t[++j] as number;
  }
  if (c === 101 || c === 69) {
    c = t[++j] as number;
    if (c === 43 || c === 45) c = t[++j] as number;
    if (!(c >= 48 && c <= 57)) return fail(j);
    while (c >= 48 && c <= 57) c = t[++j] as number;
  }
  return j;
}

/** Index just past the literal `word` (as bytes) at `i`, or -1. */
function skipLiteral(t: Uint8Array, i: number, word: readonly number[]): number {
  for (let k = 0; k < word.length; k++) if (t[i + k] !== word[k]) return fail(i + k);
  return i + word.length;
}

const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];
const NULL = [110, 117, 108, 108];

/** Index just past the scalar (string, number, literal) at `i`, or -1. */
function skipScalar(t: Uint8Array, i: number): number {
  const c = t[i];
  if (c === QUOTE) return skipString(t, i);
  if (c === 45 || (c !== undefined && c >= 48 && c <= 57)) return skipNumber(t, i);
  if (c === 116) return skipLiteral(t, i, TRUE);
  if (c === 102) return skipLiteral(t, i, FALSE);
  if (c === 110) return skipLiteral(t, i, NULL);
  return fail(i);
}

/** No member of interest, `id`, `occurredAt`: which top-level member the value at hand belongs to. */
const OTHER = 0;
const ID = 1;
const OCCURRED_AT = 2;
/** `occurredAt` as bytes. */
const OCCURRED_AT_KEY = Array.from('occurredAt', (c) => c.charCodeAt(0));
/** The member the value after the last key read belongs to (set by `readKey`). */
let wanted = OTHER;

/** Which member the top-level key `t[start..end)` (quotes included, just scanned) names. */
function memberOf(t: Uint8Array, start: number, end: number): number {
  // An escape may spell `id` in other bytes: the event is then read with JSON.parse.
  if (escaped) oddKey = true;
  else if (end - start === 4) {
    if (t[start + 1] === 105 && t[start + 2] === 100) return ID;
  } else if (end - start === 12) {
    for (let k = 0; k < 10; k++) if (t[start + 1 + k] !== OCCURRED_AT_KEY[k]) return OTHER;
    return OCCURRED_AT;
  }
  return OTHER;
}

/** Index of the value after the key at `i`, its colon and spaces, or -1; sets `wanted`. */
function readKey(t: Uint8Array, i: number, depth: number): number {
  if (t[i] !== QUOTE) return fail(i);
  const keyStart = i;
  i = skipString(t, i);
  if (i < 0) return -1;
  wanted = depth === 1 ? memberOf(t, keyStart, i) : OTHER;
  i = skipSpace(t, i);
  if (t[i] !== COLON) return fail(i);
  return skipSpace(t, i + 1);
}

/** Records the value `t[start..end)` of the wanted member: its range when it is a string, else none (a later key wins, as in JSON.parse). */
function keepMember(t: Uint8Array, start: number, end: number): void {
  const string = t[start] === QUOTE;
  if (wanted === ID) {
    idStart = string ? start : -1;
    idEnd = end;
    idEscaped = escaped;
  } else {
    occStart = string ? start : -1;
    occEnd = end;
    occEscaped = escaped;
  }
  wanted = OTHER;
}

/**
 * Index just past the JSON value starting at `i` (no leading space), or -1 when the bytes break
 * the grammar (`failAt` says where). Iterative, so deep nesting cannot exhaust the stack. When
 * the value is an object, the ranges of its top-level strings `id` and `occurredAt` are left in
 * `idStart`/`idEnd` and `occStart`/`occEnd`.
 */
function skipValue(t: Uint8Array, i: number): number {
  idStart = -1;
  occStart = -1;
  oddKey = false;
  wanted = OTHER;
  const c0 = t[i];
  if (c0 !== OPEN_OBJECT && c0 !== OPEN_ARRAY) return skipScalar(t, i);
  // Open containers, innermost last: true for an object.
  let depth = 0;
  let inObject = false;
  for (;;) {
    // Here a value is expected at `i`.
    const c = t[i];
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const object = c === OPEN_OBJECT;
      if (wanted !== OTHER) keepMember(t, i, i);
      i = skipSpace(t, i + 1);
      if (t[i] === (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        i++;
      } else {
        if (depth === kinds.length) kinds = growKinds(kinds);
        kinds[depth++] = object ? 1 : 0;
        inObject = object;
        // The first key.
        if (object) i = readKey(t, i, depth);
        if (i < 0) return -1;
        continue;
      }
    } else {
      const start = i;
      i = skipScalar(t, i);
      if (i < 0) return -1;
      if (wanted !== OTHER) keepMember(t, start, i);
    }
    // After a value: a comma, or the end of the enclosing containers.
    for (;;) {
      if (depth === 0) return i;
      i = skipSpace(t, i);
      const d = t[i];
      if (d === COMMA) {
        i = skipSpace(t, i + 1);
        if (inObject) i = readKey(t, i, depth);
        if (i < 0) return -1;
        break;
      }
      if (d !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return fail(i);
      depth--;
      inObject = depth > 0 && kinds[depth - 1] === 1;
      i++;
    }
  }
}

// The open containers of `skipValue`, innermost last: 1 for an object. Reused across calls.
let kinds: Uint8Array = new Uint8Array(64);
function growKinds(old: Uint8Array): Uint8Array {
  const grown = new Uint8Array(old.length * 2);
  grown.set(old);
  return grown;
}

/** The UTF-8 text of `t[start..end)`; a Buffer decodes in place, without a view per call. */
const text = (t: Uint8Array, start: number, end: number): string =>
  Buffer.isBuffer(t) ? t.toString('utf8', start, end) : decoder.decode(t.subarray(start, end));

const json = (t: Uint8Array, start: number, end: number): unknown =>
  JSON.parse(decoder.decode(t.subarray(start, end)));

/** A member's string value from its range (-1: none). */
const member = (t: Uint8Array, start: number, end: number, escapes: boolean): string | undefined =>
  start < 0 ? undefined : escapes ? (json(t, start, end) as string) : text(t, start + 1, end - 1);

/** The object event `skipValue` just scanned, with its `id` and `occurredAt`. */
function eventAt(t: Uint8Array, start: number, end: number): RawEvent {
  if (!oddKey) {
    const id = member(t, idStart, idEnd, idEscaped);
    return { start, end, id, occurredAt: member(t, occStart, occEnd, occEscaped) };
  }
  // A key with an escape: JSON.parse says which members it names.
  const { id, occurredAt } = json(t, start, end) as { id?: unknown; occurredAt?: unknown };
  const string = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { start, end, id: string(id), occurredAt: string(occurredAt) };
}

/**
 * The `id` and `occurredAt` of one event line as the export wrote it (read as the page's events
 * are), or undefined when the line is not one JSON value.
 */
export function scanEventLine(t: Uint8Array): Pick<RawEvent, 'id' | 'occurredAt'> | undefined {
  const end = skipValue(t, 0);
  if (end !== t.length) return undefined;
  if (t[0] !== OPEN_OBJECT) return { id: undefined, occurredAt: undefined };
  const { id, occurredAt } = eventAt(t, 0, end);
  return { id, occurredAt };
}

function invalid(t: Uint8Array, at: number, events: number): MalformedResponseError {
  const where =
    at >= t.length
      ? 'unexpected end'
      : `unexpected byte 0x${(t[at] as number).toString(16).padStart(2, '0')}`;
  return new MalformedResponseError(
    `Audit page is not valid JSON: ${where} at offset ${at}${events > 0 ? ` (after ${events} events)` : ''}; nothing of this page was written`,
  );
}

/**
 * Scans and validates a page. Throws {@link MalformedResponseError} when the bytes are not valid
 * UTF-8 JSON; returns undefined when they are valid JSON but not an object with a `content` array.
 */
export function scanEventPage(t: Uint8Array): ScannedPage | undefined {
  isUtf8 ??= nodeBuiltin('node:buffer', 'audit pages').isUtf8;
  if (!isUtf8(t))
    throw new MalformedResponseError('Audit page is not valid UTF-8; nothing of this page was written');
  const envelope: Record<string, unknown> = {};
  const events: RawEvent[] = [];
  let sawContent = false;
  let shaped = true;
  let i = skipSpace(t, 0);
  if (t[i] !== OPEN_OBJECT) {
    // Valid JSON of another shape (or invalid JSON): tell them apart.
    const end = skipValue(t, i);
    if (end < 0) throw invalid(t, failAt, 0);
    if (skipSpace(t, end) !== t.length) throw invalid(t, skipSpace(t, end), 0);
    return undefined;
  }
  i = skipSpace(t, i + 1);
  if (t[i] === CLOSE_OBJECT) {
    const after = skipSpace(t, i + 1);
    if (after !== t.length) throw invalid(t, after, 0);
    return undefined;
  }
  for (;;) {
    if (t[i] !== QUOTE) throw invalid(t, i, events.length);
    const keyEnd = skipString(t, i);
    if (keyEnd < 0) throw invalid(t, failAt, events.length);
    const key = json(t, i, keyEnd) as string;
    i = skipSpace(t, keyEnd);
    if (t[i] !== COLON) throw invalid(t, i, events.length);
    i = skipSpace(t, i + 1);
    if (key === 'content' && t[i] === OPEN_ARRAY && !sawContent) {
      sawContent = true;
      i = skipSpace(t, i + 1);
      if (t[i] === CLOSE_ARRAY) i++;
      else
        for (;;) {
          const start = i;
          const end = skipValue(t, i);
          if (end < 0) throw invalid(t, failAt, events.length);
          const object = t[start] === OPEN_OBJECT;
          events.push(object ? eventAt(t, start, end) : { start, end, id: undefined, occurredAt: undefined });
          i = skipSpace(t, end);
          if (t[i] === COMMA) i = skipSpace(t, i + 1);
          else if (t[i] === CLOSE_ARRAY) {
            i++;
            break;
          } else throw invalid(t, i, events.length);
        }
    } else {
      const end = skipValue(t, i);
      if (end < 0) throw invalid(t, failAt, events.length);
      if (key === 'content') shaped = false;
      else envelope[key] = json(t, i, end);
      i = end;
    }
    i = skipSpace(t, i);
    if (t[i] === COMMA) {
      i = skipSpace(t, i + 1);
      continue;
    }
    if (t[i] !== CLOSE_OBJECT) throw invalid(t, i, events.length);
    break;
  }
  const after = skipSpace(t, i + 1);
  if (after !== t.length) throw invalid(t, after, events.length);
  return sawContent && shaped ? { bytes: t, envelope, events } : undefined;
}
