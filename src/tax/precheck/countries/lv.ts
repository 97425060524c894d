import { digit, isDigits, isValidDate, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const LEGAL = [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1];
const PERSON = [10, 5, 8, 4, 2, 1, 6, 3, 7, 9];

/**
 * Latvia (PVN): 11 digits.
 * - First digit above 3: legal entity, weighted sum ≡ 3 (mod 11) (State Revenue Service, VID).
 * - '32'-'39': personal codes issued since 1 July 2017. The Office of Citizenship and Migration
 *   Affairs (PMLP), which keeps the population register, issues them as '3', a digit 2-9 and nine
 *   random digits: no birth date and no check digit. Any such 11 digits are accepted.
 * - Otherwise an older personal code: DDMMYY + century digit (0 → 1800s, 1 → 1900s, 2 → 2000s) with
 *   a valid date; check = (1 + Σ) mod 11 mod 10 (as python-stdnum implements it; it marks this
 *   algorithm as not confirmed by an independent source).
 */
export const lv: CountryRule = {
  canonicalPrefix: 'LV',
  toBody: stripPrefix('LV'),
  check(body) {
    if (body.length !== 11 || !isDigits(body)) return 'FORMAT';
    const first = digit(body, 0);
    if (first > 3) return weightedSum(body, LEGAL) % 11 === 3 ? 'OK' : 'CHECKSUM';
    if (first === 3 && digit(body, 1) >= 2) return 'OK';
    const day = first * 10 + digit(body, 1);
    const month = digit(body, 2) * 10 + digit(body, 3);
    const year = 1800 + digit(body, 6) * 100 + digit(body, 4) * 10 + digit(body, 5);
    if (!isValidDate(year, month, day)) return 'FORMAT';
    return ((1 + weightedSum(body, PERSON)) % 11) % 10 === digit(body, 10) ? 'OK' : 'CHECKSUM';
  },
};
