import { isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [9, 7, 3, 1, 9, 7, 3, 1];

/** Hungary (ANUM, first 8 digits of the adószám): weighted sum ≡ 0 (mod 10). */
export const hu: CountryRule = {
  canonicalPrefix: 'HU',
  toBody: stripPrefix('HU'),
  check(body) {
    if (body.length !== 8 || !isDigits(body)) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 10 === 0 ? 'OK' : 'CHECKSUM';
  },
};
