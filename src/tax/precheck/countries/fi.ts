import { isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1];

/** Finland (ALV, from the Y-tunnus): 8 digits, weighted sum ≡ 0 (mod 11). */
export const fi: CountryRule = {
  canonicalPrefix: 'FI',
  toBody: stripPrefix('FI'),
  check(body) {
    if (body.length !== 8 || !isDigits(body)) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 11 === 0 ? 'OK' : 'CHECKSUM';
  },
};
