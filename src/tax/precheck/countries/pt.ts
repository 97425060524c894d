import { digit, isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [9, 8, 7, 6, 5, 4, 3, 2];

/** Portugal (NIF/NIPC): 9 digits, no leading 0; check = 11 - Σ mod 11, 10 and 11 become 0. */
export const pt: CountryRule = {
  canonicalPrefix: 'PT',
  toBody: stripPrefix('PT'),
  check(body) {
    if (body.length !== 9 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    const c = 11 - (weightedSum(body, WEIGHTS) % 11);
    return (c >= 10 ? 0 : c) === digit(body, 8) ? 'OK' : 'CHECKSUM';
  },
};
