import { digit, isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/** Poland (NIP): 10 digits, Σ mod 11 equals the 10th digit (a 10 is never issued). */
export const pl: CountryRule = {
  canonicalPrefix: 'PL',
  toBody: stripPrefix('PL'),
  check(body) {
    if (body.length !== 10 || !isDigits(body)) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 11 === digit(body, 9) ? 'OK' : 'CHECKSUM';
  },
};
