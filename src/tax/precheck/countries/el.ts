import { digit, isDigits } from '../checksums.js';
import type { CountryRule } from '../types.js';

/**
 * Greece: VIES uses the prefix EL, the ISO code is GR; both are accepted as value prefix (once).
 * 9 digits; the legacy 8-digit form gets a leading 0. Canonical form is 'EL' + 9 digits.
 */
export const el: CountryRule = {
  canonicalPrefix: 'EL',
  toBody(value) {
    const body = value.startsWith('EL') || value.startsWith('GR') ? value.slice(2) : value;
    return body.length === 8 && isDigits(body) ? '0' + body : body;
  },
  check(body) {
    if (body.length !== 9 || !isDigits(body)) return 'FORMAT';
    // Σ d_i · 2^(9-i) for the first 8 digits, computed Horner-style.
    let sum = 0;
    for (let i = 0; i < 8; i++) sum = (sum + digit(body, i)) * 2;
    return (sum % 11) % 10 === digit(body, 8) ? 'OK' : 'CHECKSUM';
  },
};
