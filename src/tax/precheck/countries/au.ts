import { isDigits, weightedSum } from '../checksums.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/**
 * Australia (ABN): 11 digits, no prefix. Official rule: subtract 1 from the first digit, weight,
 * Σ ≡ 0 (mod 89). Check pairs 10 and 99 are congruent, so both twins are valid (python-stdnum and
 * stdnum reject the 10-twin). The check pair is 10..99, so a leading 0 is FORMAT.
 */
export const au: CountryRule = {
  canonicalPrefix: '',
  toBody: (value) => value,
  check(body) {
    if (body.length !== 11 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    // Subtracting 1 from the first digit removes its weight 10 from the sum.
    return (weightedSum(body, WEIGHTS) - 10) % 89 === 0 ? 'OK' : 'CHECKSUM';
  },
};
