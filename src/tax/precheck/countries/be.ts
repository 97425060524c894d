import { decimalValue, isDigits } from '../checksums.js';
import type { CountryRule } from '../types.js';

/**
 * Belgium (enterprise number): 10 digits starting 0 or 1 (the 1-series is issued since 2023).
 * The legacy 9-digit form gets a leading 0, as registries expect the 10-digit form.
 */
export const be: CountryRule = {
  canonicalPrefix: 'BE',
  toBody(value) {
    const body = value.startsWith('BE') ? value.slice(2) : value;
    return body.length === 9 && isDigits(body) ? '0' + body : body;
  },
  check(body) {
    if (body.length !== 10 || !isDigits(body)) return 'FORMAT';
    const first = body.charCodeAt(0);
    if (first !== 48 && first !== 49) return 'FORMAT';
    // Check digits are 97 - (n mod 97), so always 01..97; python-stdnum also takes 00 when 97 | n.
    return 97 - (decimalValue(body, 0, 8) % 97) === decimalValue(body, 8, 10) ? 'OK' : 'CHECKSUM';
  },
};
