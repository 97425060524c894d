import { isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [3, 4, 6, 7, 8, 9, 10, 1];

/** Malta: 8 digits, no leading 0; the last two digits form the check, weighted sum ≡ 0 (mod 37). */
export const mt: CountryRule = {
  canonicalPrefix: 'MT',
  toBody: stripPrefix('MT'),
  check(body) {
    if (body.length !== 8 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 37 === 0 ? 'OK' : 'CHECKSUM';
  },
};
