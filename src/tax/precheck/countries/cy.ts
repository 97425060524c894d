import { digit, isDigits, isUpperLetterAt } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

// Substitution for the digits in odd positions (1st, 3rd, 5th, 7th).
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];

/** Cyprus: 8 digits + check letter; the prefix '12' is not issued (python-stdnum rejects it). */
export const cy: CountryRule = {
  canonicalPrefix: 'CY',
  toBody: stripPrefix('CY'),
  check(body) {
    if (body.length !== 9 || !isDigits(body, 0, 8) || !isUpperLetterAt(body, 8)) return 'FORMAT';
    if (body.charCodeAt(0) === 49 && body.charCodeAt(1) === 50) return 'FORMAT';
    let sum = 0;
    for (let i = 0; i < 8; i += 2) sum += ODD[digit(body, i)]! + digit(body, i + 1);
    return 65 + (sum % 26) === body.charCodeAt(8) ? 'OK' : 'CHECKSUM';
  },
};
