import { decimalMod, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/**
 * Slovakia (IČ DPH): 10 digits, no leading 0, third digit in 2,3,4,7,8,9, whole number ≡ 0 (mod 11).
 * A bare rodné číslo (python-stdnum accepts it) is not taken: it is not an IČ DPH.
 */
export const sk: CountryRule = {
  canonicalPrefix: 'SK',
  toBody: stripPrefix('SK'),
  check(body) {
    if (body.length !== 10 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    const third = body.charCodeAt(2) - 48;
    if (third < 2 || third === 5 || third === 6) return 'FORMAT';
    return decimalMod(body, 0, 10, 11) === 0 ? 'OK' : 'CHECKSUM';
  },
};
