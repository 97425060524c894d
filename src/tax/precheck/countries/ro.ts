import { digit, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [7, 5, 3, 2, 1, 7, 5, 3, 2];

/**
 * Romania (CUI/CIF): 2-10 digits, no leading 0. The payload is left-padded to 9 digits;
 * check = (10 · Σ mod 11) mod 10. The 13-digit CNP that python-stdnum also takes is rejected:
 * it is a personal ID, not what VIES expects for RO.
 */
export const ro: CountryRule = {
  canonicalPrefix: 'RO',
  toBody: stripPrefix('RO'),
  check(body) {
    const n = body.length;
    if (n < 2 || n > 10 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    let sum = 0;
    // Right-align the payload (n - 1 digits) against the 9 weights.
    const offset = 10 - n;
    for (let i = 0; i < n - 1; i++) sum += WEIGHTS[offset + i]! * digit(body, i);
    return ((10 * sum) % 11) % 10 === digit(body, n - 1) ? 'OK' : 'CHECKSUM';
  },
};
