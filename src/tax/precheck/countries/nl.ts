import { digit, isDigits, mod97_10, weightedSum } from '../checksums.js';
import type { CountryRule } from '../types.js';

const ELEVEN_TEST = [9, 8, 7, 6, 5, 4, 3, 2];
const PADDING = '00000000';
// The scheme runs over 'NL' + body; fold the constant prefix in once.
const NL_REMAINDER = mod97_10('NL');

/**
 * Netherlands (btw): 9 digits + 'B' + 2 digits. Fewer than 9 leading digits are zero-padded.
 * Valid when the 9 digits pass the 11-test (RSIN/BSN-based numbers) or when 'NL' + body passes
 * ISO 7064 MOD 97-10 (btw-id issued to sole proprietors since 2020).
 */
export const nl: CountryRule = {
  canonicalPrefix: 'NL',
  toBody(value) {
    const body = value.startsWith('NL') ? value.slice(2) : value;
    const n = body.length;
    if (n >= 12 || n < 4 || body.charCodeAt(n - 3) !== 66 || !isDigits(body, 0, n - 3)) return body;
    return PADDING.slice(n - 4) + body;
  },
  check(body) {
    if (body.length !== 12 || body.charCodeAt(9) !== 66 || !isDigits(body, 0, 9) || !isDigits(body, 10)) {
      return 'FORMAT';
    }
    if (body.startsWith('000000000') || (body.charCodeAt(10) === 48 && body.charCodeAt(11) === 48)) {
      return 'FORMAT';
    }
    if ((weightedSum(body, ELEVEN_TEST) - digit(body, 8)) % 11 === 0) return 'OK';
    return mod97_10(body, NL_REMAINDER) === 1 ? 'OK' : 'CHECKSUM';
  },
};
