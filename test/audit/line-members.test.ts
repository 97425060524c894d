import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineMembers, lineReader } from '../../src/node/audit-search/line-members.js';
import { randomEvent } from '../helpers/audit-events.js';

// A search reads of each matching line only the members its query reads (line-members.ts): what
// it gives must be what JSON.parse of the whole line gives for them, however the line is written,
// and a line it cannot read in part must say so (undefined), never give another value.

const MEMBERS = [
  'id',
  'occurredAt',
  'type',
  'action',
  'actor',
  'subject',
  'scopes',
  'changes',
  'details',
  'origin',
];

/** The members of `line` as `lineMembers` reads them, the line being one in a block of others. */
function read(line: string, parse: readonly string[], strings: readonly string[] = ['id', 'occurredAt']) {
  const before = '{"id":"x","occurredAt":"y"}\n';
  const block = Buffer.from(`${before}${line}\n{"id":"z"}`);
  const start = Buffer.byteLength(before);
  return lineMembers(block, start, start + Buffer.byteLength(line), lineReader(parse, strings));
}

/** What JSON.parse of the whole line gives for `names`. */
function whole(line: string, names: readonly string[]): Record<string, unknown> {
  const parsed = JSON.parse(line) as Record<string, unknown>;
  return Object.fromEntries(names.filter((n) => Object.hasOwn(parsed, n)).map((n) => [n, parsed[n]]));
}

/** An event's line as other JSON writers may write it: spaces and tabs between tokens, a member given twice. */
const writtenArb = fc.record({
  event: randomEvent,
  spacing: fc.constantFrom(undefined, 1, '\t', '  '),
  twice: fc.option(fc.constantFrom(...MEMBERS.slice(2)), { nil: undefined }),
  again: randomEvent,
});
type WrittenCase = typeof writtenArb extends fc.Arbitrary<infer T> ? T : never;
const written = ({ event, spacing, twice, again }: WrittenCase) => {
  // Raw line breaks of the output are layout only: JSON escapes those inside strings.
  let line = JSON.stringify(event, null, spacing).replace(/\n/g, ' ');
  if (twice)
    line = `${line.slice(0, line.lastIndexOf('}'))},"${twice}":${JSON.stringify((again as Record<string, unknown>)[twice] ?? null)}}`;
  return line;
};

describe('a line read in part gives what JSON.parse of the whole line gives for those members', () => {
  it('random events, written spaced or compact, a member given twice (the last counts)', () => {
    fc.assert(
      fc.property(writtenArb, fc.subarray(MEMBERS), (case_, parse) => {
        const line = written(case_);
        const members = read(line, parse);
        // Every line JSON.stringify writes is read in part: the search never falls back for them.
        expect(members).toBeDefined();
        expect(members).toEqual(whole(line, parse));
      }),
      { numRuns: 400 },
    );
  });

  it('a key written with an escape is read whole (it may spell a wanted name), never another value', () => {
    const line = '{"id":"a","occurredAt":"b","act\\u006fr":{"type":"USER"},"actor":{"type":"API_KEY"}}';
    expect(read(line, ['actor'])).toBeUndefined();
    expect(JSON.parse(line).actor).toEqual({ type: 'API_KEY' });
    // An escape inside a value is stepped over like any string.
    expect(read('{"id":"a\\"}","occurredAt":"b","type":"x\\\\"}', ['type', 'id'])).toEqual({
      id: 'a"}',
      type: 'x\\',
    });
  });
});

describe('a line that is not one object with string id and occurredAt is read whole', () => {
  it.each([
    ['an array', '[{"id":"a","occurredAt":"b"}]'],
    ['a string', '"id"'],
    ['cut short', '{"id":"a","occurredAt":"b","type":"x'],
    ['an object left open', '{"id":"a","occurredAt":"b","actor":{"type":"USER"}'],
    ['bytes after the object', '{"id":"a","occurredAt":"b"} x'],
    ['a member without a value', '{"id":"a","occurredAt":"b","type":}'],
    ['no colon', '{"id" "a","occurredAt":"b"}'],
    ['no id', '{"occurredAt":"b"}'],
    ['an id that is not a string', '{"id":7,"occurredAt":"b"}'],
    ['a wanted value JSON does not take', '{"id":"a","occurredAt":"b","type":nul}'],
  ])('%s', (_what, line) => {
    expect(read(line, ['type'])).toBeUndefined();
  });

  it('an empty object lacks the required members; without requirements it reads as empty', () => {
    expect(read('{}', ['type'])).toBeUndefined();
    expect(read(' { } ', ['type'], [])).toEqual({});
  });
});
