import { isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1];

/** Denmark (CVR): 8 digits, no leading 0, weighted sum ≡ 0 (mod 11). */
export const dk: CountryRule = {
  canonicalPrefix: 'DK',
  toBody: stripPrefix('DK'),
  check(body) {
    if (body.length !== 8 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 11 === 0 ? 'OK' : 'CHECKSUM';
  },
};
