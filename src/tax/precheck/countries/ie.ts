import { digit, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

// Check letters: W=0, A=1 … V=22.
const LETTERS = 'WABCDEFGHIJKLMNOPQRSTUV';

/**
 * Ireland: 7 digits + check letter + optional second letter (2013 form, weighted 9), or the old
 * form digit + letter/'+'/'*' + 5 digits + check letter, checked as '0' + d3..d7 + d1.
 */
export const ie: CountryRule = {
  canonicalPrefix: 'IE',
  toBody: stripPrefix('IE'),
  check(body) {
    const n = body.length;
    if (n !== 8 && n !== 9) return 'FORMAT';
    const check = LETTERS.indexOf(body[7]!);
    if (check < 0 || !isDigits(body, 2, 7) || !isDigits(body, 0, 1)) return 'FORMAT';
    let sum: number;
    if (isDigits(body, 1, 2)) {
      sum = 0;
      for (let i = 0; i < 7; i++) sum += (8 - i) * digit(body, i);
      if (n === 9) {
        const second = LETTERS.indexOf(body[8]!);
        if (second < 0) return 'FORMAT';
        sum += 9 * second;
      }
    } else {
      const c = body.charCodeAt(1);
      if (n !== 8 || !((c >= 65 && c <= 90) || c === 43 || c === 42)) return 'FORMAT';
      // Weights 8..2 over '0', d3..d7, d1: the leading 0 contributes nothing.
      sum = 2 * digit(body, 0);
      for (let i = 2; i < 7; i++) sum += (9 - i) * digit(body, i);
    }
    return sum % 23 === check ? 'OK' : 'CHECKSUM';
  },
};
