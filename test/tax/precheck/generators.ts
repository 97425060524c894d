import fc from 'fast-check';

/**
 * fast-check generators for differential tests. Each yields a list of candidate bodies (values
 * without the country prefix) sharing one random payload and differing in the check characters, so
 * every run contains valid and invalid bodies without using our own check-digit code.
 */

export const DIGITS = [...'0123456789'];
export const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const PAIRS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

const digit = fc.constantFrom(...DIGITS);

/** n random decimal digits. */
export const digits = (n: number): fc.Arbitrary<string> =>
  n === 0 ? fc.constant('') : fc.string({ unit: digit, minLength: n, maxLength: n });

/** Concatenation of string arbitraries. */
export const cat = (...parts: ReadonlyArray<fc.Arbitrary<string> | string>): fc.Arbitrary<string> =>
  fc.tuple(...parts.map((p) => (typeof p === 'string' ? fc.constant(p) : p))).map((xs) => xs.join(''));

/** payload + each check option (+ a fixed tail). */
export const withChecks = (
  payload: fc.Arbitrary<string>,
  checks: readonly string[],
  tail = '',
): fc.Arbitrary<string[]> => payload.map((p) => checks.map((c) => p + c + tail));

/** Each check option + payload (check characters in front, as for ABNs). */
export const checksFirst = (
  payload: fc.Arbitrary<string>,
  checks: readonly string[],
): fc.Arbitrary<string[]> => payload.map((p) => checks.map((c) => c + p));

const two = (n: number): string => String(n).padStart(2, '0');
const int = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max });

/** YYMMDD with a month code offset; days up to 31 so some dates are impossible. */
const yymmdd = (monthOffsets: readonly number[]): fc.Arbitrary<string> =>
  fc
    .tuple(int(0, 99), int(1, 12), fc.constantFrom(...monthOffsets), int(1, 31))
    .map(([y, m, o, d]) => two(y) + two(m + o) + two(d));

export const GENERATORS: Readonly<Record<string, fc.Arbitrary<string[]>>> = {
  AT: withChecks(cat('U', digits(7)), DIGITS),
  BE: fc.oneof(
    withChecks(cat(fc.constantFrom('0', '1'), digits(7)), PAIRS),
    withChecks(digits(8), PAIRS),
    withChecks(digits(7), PAIRS),
  ),
  BG: fc.oneof(
    withChecks(digits(8), DIGITS),
    withChecks(digits(9), DIGITS),
    withChecks(cat(yymmdd([0, 20, 40]), digits(3)), DIGITS),
  ),
  CY: withChecks(digits(8), LETTERS),
  CZ: fc.oneof(
    withChecks(digits(7), DIGITS),
    withChecks(cat('6', digits(7)), DIGITS),
    withChecks(cat(yymmdd([0, 20, 50, 70]), digits(3)), DIGITS),
    cat(yymmdd([0, 50]), digits(3)).map((b) => [b]),
  ),
  DE: withChecks(digits(8), DIGITS),
  DK: withChecks(digits(7), DIGITS),
  EE: fc.oneof(withChecks(cat('10', digits(6)), DIGITS), withChecks(digits(8), DIGITS)),
  GR: fc.oneof(withChecks(digits(8), DIGITS), withChecks(digits(7), DIGITS)),
  ES: fc.oneof(
    withChecks(digits(8), LETTERS),
    withChecks(cat(fc.constantFrom('X', 'Y', 'Z'), digits(7)), LETTERS),
    withChecks(cat(fc.constantFrom('K', 'L', 'M'), digits(7)), LETTERS),
    withChecks(cat(fc.constantFrom(...'ABCDEFGHJNPQRSUVW'), digits(7)), [...DIGITS, ...'JABCDEFGHI']),
  ),
  FI: withChecks(digits(7), DIGITS),
  FR: fc.oneof(
    // Numeric key: every key for one SIREN whose check digit is enumerated too.
    digits(8).map((s) => PAIRS.flatMap((k) => DIGITS.map((c) => k + s + c))),
    withChecks(
      cat(
        fc.constantFrom(...'0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'),
        fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ'),
        digits(8),
      ),
      DIGITS,
    ),
    withChecks(cat(fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ'), digit, digits(8)), DIGITS),
    digits(6).map((s) => PAIRS.map((k) => `${k}000${s}`)),
  ),
  HR: withChecks(digits(10), DIGITS),
  HU: withChecks(digits(7), DIGITS),
  IE: fc.oneof(
    withChecks(digits(7), [...'ABCDEFGHIJKLMNOPQRSTUVW']),
    fc
      .tuple(digits(7), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVW'))
      .map(([d, second]) => [...'ABCDEFGHIJKLMNOPQRSTUVW'].map((c) => d + c + second)),
    withChecks(cat(digit, fc.constantFrom(...LETTERS, '+', '*'), digits(5)), [...'ABCDEFGHIJKLMNOPQRSTUVW']),
  ),
  IT: fc.oneof(
    withChecks(cat(digits(7), fc.constantFrom('001', '050', '100', '120', '121', '888', '999')), DIGITS),
    withChecks(digits(10), DIGITS),
  ),
  LT: fc.oneof(withChecks(cat(digits(7), '1'), DIGITS), withChecks(cat(digits(10), '1'), DIGITS)),
  LU: withChecks(digits(6), PAIRS),
  LV: fc.oneof(
    withChecks(cat(fc.constantFrom(...'456789'), digits(9)), DIGITS),
    withChecks(
      fc
        .tuple(int(1, 31), int(1, 12), int(0, 99), int(0, 2), digits(3))
        .map(([d, m, y, c, s]) => two(d) + two(m) + two(y) + c + s),
      DIGITS,
    ),
    withChecks(cat('3', fc.constantFrom(...'23456789'), digits(8)), DIGITS),
  ),
  MT: withChecks(digits(6), PAIRS),
  NL: fc.oneof(
    fc.tuple(digits(8), digits(2)).map(([d, s]) => DIGITS.map((c) => `${d}${c}B${s}`)),
    fc.tuple(digits(5), digits(2)).map(([d, s]) => DIGITS.map((c) => `${d}${c}B${s}`)),
  ),
  PL: withChecks(digits(9), DIGITS),
  PT: withChecks(digits(8), DIGITS),
  RO: int(1, 9).chain((n) => withChecks(digits(n), DIGITS)),
  SE: withChecks(digits(9), DIGITS, '01'),
  SI: withChecks(digits(7), DIGITS),
  SK: withChecks(digits(9), DIGITS),
  GB: fc.oneof(
    withChecks(digits(7), PAIRS),
    fc.tuple(digits(7), digits(3)).map(([d, b]) => PAIRS.map((p) => d + p + b)),
    fc.tuple(fc.constantFrom('GD', 'HA'), digits(3)).map(([p, d]) => [p + d]),
    fc.tuple(fc.constantFrom('GD8888', 'HA8888'), digits(5)).map(([p, d]) => [p + d]),
  ),
  XI: withChecks(digits(7), PAIRS),
  CH: withChecks(cat('CHE', digits(8)), DIGITS),
  CH_VAT: fc
    .tuple(digits(8), fc.constantFrom('MWST', 'TVA', 'IVA', 'TPV'))
    .map(([d, s]) => DIGITS.map((c) => `CHE${d}${c}${s}`)),
  NO: withChecks(digits(8), DIGITS),
  AU: checksFirst(digits(9), PAIRS),
  NZ: withChecks(digits(12), DIGITS),
};
