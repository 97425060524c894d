import { decimalMod, digit, isDigits, isValidDate, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { BodyCode, CountryRule } from '../types.js';

const LEGAL = [8, 7, 6, 5, 4, 3, 2];

/**
 * Czech Republic (DIČ): 8 digits for legal entities, 9 digits starting 6 for individuals without a
 * birth number, otherwise a 9/10-digit rodné číslo (birth number) with an encoded birth date.
 */
export const cz: CountryRule = {
  canonicalPrefix: 'CZ',
  toBody: stripPrefix('CZ'),
  check(body) {
    const n = body.length;
    if (n < 8 || n > 10 || !isDigits(body)) return 'FORMAT';
    if (n === 8) {
      if (body.charCodeAt(0) === 57) return 'FORMAT';
      const r = weightedSum(body, LEGAL) % 11;
      // r=0 -> 1 and r=1 -> 0, otherwise 11 - r (python-stdnum: (11 - r) % 11 or 1, mod 10).
      const check = r === 0 ? 1 : r === 1 ? 0 : 11 - r;
      return check === digit(body, 7) ? 'OK' : 'CHECKSUM';
    }
    if (n === 9 && body.charCodeAt(0) === 54) {
      const r = weightedSum(body, LEGAL, 1) % 11;
      // Python's (8 - (10 - r) % 11) % 10 with a non-negative modulo.
      const check = (((8 - ((10 - r) % 11)) % 10) + 10) % 10;
      return check === digit(body, 8) ? 'OK' : 'CHECKSUM';
    }
    return birthNumber(body);
  },
};

/**
 * Rodné číslo. YYMMDD + serial (+ check digit for 10-digit numbers). Month +50 for women; +20 (+70)
 * when a day's serials run out, only possible for 10-digit numbers (introduced in 2004).
 * 9-digit numbers were issued only for births before 1954.
 */
function birthNumber(body: string): BodyCode {
  const yy = digit(body, 0) * 10 + digit(body, 1);
  let month = digit(body, 2) * 10 + digit(body, 3);
  const day = digit(body, 4) * 10 + digit(body, 5);
  const long = body.length === 10;
  if (month > 50) month -= 50;
  if (long && month > 20) month -= 20;
  let year: number;
  if (long) {
    year = yy < 54 ? 2000 + yy : 1900 + yy;
  } else {
    // As python-stdnum: 9-digit years 80-99 are read as 1880-1899, 54-79 cannot exist.
    if (yy >= 54 && yy < 80) return 'FORMAT';
    year = yy >= 80 ? 1800 + yy : 1900 + yy;
  }
  if (!isValidDate(year, month, day)) return 'FORMAT';
  if (!long) return 'OK';
  // Remainder 10 gives check digit 0 (issued that way until 1985; accepted for all years, as python-stdnum).
  return decimalMod(body, 0, 9, 11) % 10 === digit(body, 9) ? 'OK' : 'CHECKSUM';
}
