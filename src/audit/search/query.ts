import { SvcError } from '../../core/errors/error-classes.js';

// The search language of the audit log, in GitHub's style: `qualifier:value` terms, ANDed when
// side by side, `OR` between groups, `-` in front to negate, a trailing `*` for a prefix, and
// `occurred:` with comparisons and ranges. Parsed once into a query that match.ts applies to events.

/** The text qualifiers: what part of an event each one reads is documented in match.ts. */
export const TEXT_QUALIFIERS = [
  'id',
  'type',
  'action',
  'actor',
  'actor.type',
  'subject',
  'scope',
  'field',
  'ip',
] as const;

/** A qualifier of the search language: a text qualifier, `origin.<member>`, or `occurred`. */
export type AuditQualifier = (typeof TEXT_QUALIFIERS)[number] | `origin.${string}` | 'occurred';

/** How a text qualifier's value is compared (case does not matter). */
export type TextTest =
  /** The value itself. */
  | { kind: 'equals'; value: string }
  /** Values starting with this (`action:auth*`). */
  | { kind: 'prefix'; value: string }
  /** Any value at all (`field:*`: the event has such a part). */
  | { kind: 'present' };

/** A span of time, `from` inclusive and `to` exclusive, in ms since the epoch (either open). */
export interface TimeSpan {
  from?: number;
  to?: number;
}

/** One term: a qualifier and its test, negated by a leading `-`. */
export type AuditQueryTerm =
  | { qualifier: Exclude<AuditQualifier, 'occurred'>; test: TextTest; negated: boolean }
  | { qualifier: 'occurred'; span: TimeSpan; negated: boolean };

/**
 * A parsed query: events match when they match every term of at least one group (the groups are
 * what `OR` separates). The empty query is one empty group: it matches every event.
 */
export interface AuditQuery {
  groups: AuditQueryTerm[][];
}

/** A query that cannot be parsed: `SvcError` code `query`, its message one line naming the term. */
const queryError = (message: string) => new SvcError(`search query: ${message}`, 'query');

const QUALIFIER_LIST = [...TEXT_QUALIFIERS, 'origin.<member>', 'occurred'].map((q) => `${q}:`).join(' ');

/**
 * Splits a query into words, a `"..."` part kept whole (with `\"` and `\\` inside it). Each
 * character that was quoted comes out escaped (`\x`), so nothing quoted reads as syntax (`*`, a
 * comparison, `..`); a backslash outside quotes comes out doubled.
 */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') {
      inWord = true;
      let closed = false;
      for (i++; i < text.length; i++) {
        const c = text[i] as string;
        if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += `\\${text[++i]}`;
        else if (c === '"') {
          closed = true;
          break;
        } else word += `\\${c}`;
      }
      if (!closed) throw queryError(`a quote is not closed in ${JSON.stringify(text)}`);
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch === '\\' ? '\\\\' : ch;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

/** A word's value with its escapes undone, and whether it ended in an unescaped `*`. */
function literal(raw: string): { value: string; star: boolean } {
  let value = '';
  let star = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch === '\\') {
      value += raw[++i] ?? '';
    } else if (ch === '*') {
      if (i !== raw.length - 1) throw queryError(`a * may only end a value (${JSON.stringify(raw)})`);
      star = true;
    } else value += ch;
  }
  return { value, star };
}

function textTest(qualifier: string, raw: string): TextTest {
  if (/^(>=|<=|>|<)/.test(raw) || raw.includes('..'))
    throw queryError(`${qualifier}: takes a value, not a comparison (only occurred: compares)`);
  const { value, star } = literal(raw);
  if (star) return value === '' ? { kind: 'present' } : { kind: 'prefix', value: value.toLowerCase() };
  if (value === '') throw queryError(`${qualifier}: needs a value (or * for any)`);
  return { kind: 'equals', value: value.toLowerCase() };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A time literal as the span it names: a UTC day or month whole, an instant as its millisecond. */
function timeLiteral(text: string): Required<TimeSpan> {
  const day = DAY.exec(text);
  if (day) {
    const from = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    const check = new Date(from);
    if (check.getUTCDate() !== Number(day[3]) || check.getUTCMonth() !== Number(day[2]) - 1)
      throw queryError(`occurred: ${text} is not a date`);
    return { from, to: from + 86_400_000 };
  }
  const month = MONTH.exec(text);
  if (month && Number(month[2]) >= 1 && Number(month[2]) <= 12) {
    const from = Date.UTC(Number(month[1]), Number(month[2]) - 1, 1);
    return { from, to: Date.UTC(Number(month[1]), Number(month[2]), 1) };
  }
  const at = INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at))
    throw queryError(
      `occurred: ${JSON.stringify(text)} is not a time: use 2026-11-01, 2026-11 or 2026-11-01T10:00:00Z`,
    );
  return { from: at, to: at + 1 };
}

/** `occurred:` values: `>=T`, `>T`, `<=T`, `<T`, `T`, `A..B` (`*` for an open side); T a day, a month or an instant. */
function timeSpan(raw: string): TimeSpan {
  const compare = /^(>=|<=|>|<)(.+)$/.exec(raw);
  if (compare) {
    const t = timeLiteral(compare[2] as string);
    if (compare[1] === '>=') return { from: t.from };
    if (compare[1] === '>') return { from: t.to };
    if (compare[1] === '<=') return { to: t.to };
    return { to: t.from };
  }
  const range = raw.split('..');
  if (range.length === 2) {
    const [a, b] = range as [string, string];
    const span: TimeSpan = {};
    if (a !== '*') span.from = timeLiteral(a).from;
    if (b !== '*') span.to = timeLiteral(b).to;
    if (span.from !== undefined && span.to !== undefined && span.from >= span.to)
      throw queryError(`occurred:${raw} ends before it starts`);
    return span;
  }
  if (range.length > 2) throw queryError(`occurred:${raw} is not a range (a..b)`);
  return timeLiteral(raw);
}

function term(word: string): AuditQueryTerm {
  const negated = word.startsWith('-') && word.length > 1;
  const body = negated ? word.slice(1) : word;
  const colon = body.indexOf(':');
  if (colon <= 0)
    throw queryError(`${JSON.stringify(word)} has no qualifier: write it as one of ${QUALIFIER_LIST}`);
  const name = body.slice(0, colon).toLowerCase();
  const raw = body.slice(colon + 1);
  if (name === 'occurred') {
    if (raw === '') throw queryError('occurred: needs a time or a range');
    return { qualifier: 'occurred', span: timeSpan(raw.replace(/\\(.)/gs, '$1')), negated };
  }
  const original = body.slice(0, colon);
  const qualifier = name.startsWith('origin.')
    ? (`origin.${original.slice('origin.'.length)}` as const)
    : (TEXT_QUALIFIERS as readonly string[]).includes(name)
      ? (name as (typeof TEXT_QUALIFIERS)[number])
      : undefined;
  if (qualifier === undefined || qualifier === 'origin.')
    throw queryError(`unknown qualifier ${original}: (known: ${QUALIFIER_LIST})`);
  return { qualifier, test: textTest(original, raw), negated };
}

/**
 * Parses a search query of the audit log (see docs/audit-reports.md): terms `qualifier:value`
 * side by side must all match, `OR` between them starts another group (`a b OR c` is `(a and b)
 * or c`), `-qualifier:value` must not match, `value*` matches a prefix, `"..."` quotes a value
 * with spaces; values compare without regard to case. `occurred:` takes `>=`, `>`, `<=`, `<`, a
 * UTC day (`2026-11-01`), month (`2026-11`) or instant (`2026-11-01T10:00:00Z`), or a range
 * `a..b` (both ends included, `*` for an open end). The empty query matches every event.
 *
 * @throws {SvcError} code `query`: a term without a qualifier, an unknown qualifier, a bad time,
 *   a range that ends before it starts, an unclosed quote, `OR` at an end or twice.
 */
export function parseAuditQuery(text: string): AuditQuery {
  const groups: AuditQueryTerm[][] = [[]];
  const list = words(text);
  list.forEach((word, i) => {
    if (word === 'OR') {
      if (i === 0 || i === list.length - 1 || list[i - 1] === 'OR')
        throw queryError('OR needs a term on each side');
      groups.push([]);
      return;
    }
    (groups[groups.length - 1] as AuditQueryTerm[]).push(term(word));
  });
  return { groups };
}
