import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine, safeCsvCell } from '../../src/cli/output-format.js';
import { parseIntOption, parseTimestampOption, UsageError } from '../../src/cli/usage-error.js';
import { isLoopback } from '../../src/server/app.js';

describe('numbers in CLI options: a whole number in range, or one usage error', () => {
  it('never throws anything but UsageError, and accepts exactly the digits in range', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.nat(1000), fc.nat(1000), (text, a, b) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        try {
          const n = parseIntOption(text, '--n', min, max);
          expect(/^\s*\d+\s*$/.test(text)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(min);
          expect(n).toBeLessThanOrEqual(max);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect((error as Error).message).toMatch(/^--n must be/);
          expect((error as Error).message.split('\n')).toHaveLength(1);
        }
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});

describe('timestamps in CLI options: ISO 8601 in UTC, or one usage error', () => {
  it('round-trips any valid instant and refuses any other string clearly', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        (date) => {
          expect(parseTimestampOption(date.toISOString(), '--from')).toBe(date.toISOString());
        },
      ),
      { numRuns: 500, seed: 12 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        try {
          const iso = parseTimestampOption(text, '--from');
          expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect((error as Error).message.split('\n')).toHaveLength(1);
        }
      }),
      { numRuns: 2000, seed: 13 },
    );
  });

  it('accepts offsets and dates, refuses impossible dates and words', () => {
    expect(parseTimestampOption('2026-11-01T10:00:00+02:00', '--from')).toBe('2026-11-01T08:00:00.000Z');
    expect(parseTimestampOption('2026-11-01', '--from')).toBe('2026-11-01T00:00:00.000Z');
    for (const bad of [
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2025-02-29',
      '2026-11-01T25:00:00Z',
      '1730000000',
      '',
    ]) {
      expect(() => parseTimestampOption(bad, '--from'), bad).toThrow(UsageError);
    }
  });
});

describe('CSV outputs neutralise formula injection', () => {
  it('prefixes cells starting with = + - @ tab or carriage return, leaves numbers alone', () => {
    for (const cell of ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      expect(safeCsvCell(cell)).toBe(`'${cell}`);
    }
    expect(safeCsvCell('-12.5')).toBe('-12.5');
    expect(safeCsvCell('DE136695976')).toBe('DE136695976');
    expect(csvLine(['=1+1', 'a,b', 'say "hi"'])).toBe(`'=1+1,"a,b","say ""hi"""\n`);
  });

  it('no cell of any CSV line starts a formula', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), (cells) => {
        const text = safeCsvCell(cells.join(''));
        expect(/^[=+@\t\r]/.test(text) || (/^-/.test(text) && !/^-\d+(\.\d+)?$/.test(text))).toBe(false);
      }),
      { numRuns: 1000, seed: 14 },
    );
  });
});

describe('the admin API is served on loopback only', () => {
  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '', undefined])
      expect(isLoopback(a), String(a)).toBe(false);
  });
});
