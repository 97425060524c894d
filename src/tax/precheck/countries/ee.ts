import { isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/**
 * Estonia (KMKR): 9 digits, weighted sum ≡ 0 (mod 10). Issued numbers start with '10', but as
 * python-stdnum we do not require it (a prefix rule is not a checksum we can be sure of).
 */
export const ee: CountryRule = {
  canonicalPrefix: 'EE',
  toBody: stripPrefix('EE'),
  check(body) {
    if (body.length !== 9 || !isDigits(body)) return 'FORMAT';
    return weightedSum(body, WEIGHTS) % 10 === 0 ? 'OK' : 'CHECKSUM';
  },
};
