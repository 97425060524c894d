import { digit, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/**
 * Lithuania (PVM): 9 digits (legal entities, 8th digit 1) or 12 digits (temporary payers and
 * natural persons, 11th digit 1). Weights 1,2,…,9,1,… mod 11; a 10 retries with weights shifted by 2.
 */
export const lt: CountryRule = {
  canonicalPrefix: 'LT',
  toBody: stripPrefix('LT'),
  check(body) {
    const n = body.length;
    if ((n !== 9 && n !== 12) || !isDigits(body) || body.charCodeAt(n - 2) !== 49) return 'FORMAT';
    let r = 0;
    for (let i = 0; i < n - 1; i++) r += (1 + (i % 9)) * digit(body, i);
    r %= 11;
    if (r === 10) {
      r = 0;
      for (let i = 0; i < n - 1; i++) r += (1 + ((i + 2) % 9)) * digit(body, i);
      r %= 11;
    }
    return r % 10 === digit(body, n - 1) ? 'OK' : 'CHECKSUM';
  },
};
