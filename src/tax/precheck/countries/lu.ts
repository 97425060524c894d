import { decimalValue, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/** Luxembourg (TVA): 8 digits, the first 6 mod 89 equal the last 2. */
export const lu: CountryRule = {
  canonicalPrefix: 'LU',
  toBody: stripPrefix('LU'),
  check(body) {
    if (body.length !== 8 || !isDigits(body)) return 'FORMAT';
    return decimalValue(body, 0, 6) % 89 === decimalValue(body, 6, 8) ? 'OK' : 'CHECKSUM';
  },
};
