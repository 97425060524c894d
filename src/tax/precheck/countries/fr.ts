import { decimalMod, decimalValue, isDigits, luhnValid } from '../checksums.js';
import type { CountryRule } from '../types.js';

// Key alphabet: digits and letters without I and O.
const KEY_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * France (TVA): 2-character key + 9-digit SIREN. The key may itself be 'FR', so the country prefix
 * is stripped only when the value is not already the 11-character body length.
 * Numeric key = (12 + 3 · (SIREN mod 97)) mod 97. Alphabetic keys follow the python-stdnum formula
 * (the only published source). SIREN must pass Luhn, except Monaco numbers starting '000'.
 */
export const fr: CountryRule = {
  canonicalPrefix: 'FR',
  toBody(value) {
    return value.length !== 11 && value.startsWith('FR') ? value.slice(2) : value;
  },
  check(body) {
    if (body.length !== 11 || !isDigits(body, 2)) return 'FORMAT';
    const k0 = KEY_ALPHABET.indexOf(body[0]!);
    const k1 = KEY_ALPHABET.indexOf(body[1]!);
    if (k0 < 0 || k1 < 0) return 'FORMAT';
    const monaco = body.charCodeAt(2) === 48 && body.charCodeAt(3) === 48 && body.charCodeAt(4) === 48;
    if (!monaco && !luhnValid(body, 2, 11)) return 'CHECKSUM';
    if (k0 < 10 && k1 < 10) {
      return (12 + 3 * decimalMod(body, 2, 11, 97)) % 97 === k0 * 10 + k1 ? 'OK' : 'CHECKSUM';
    }
    const c = k0 < 10 ? k0 * 24 + k1 - 10 : k0 * 34 + k1 - 100;
    return (decimalValue(body, 2, 11) + 1 + Math.floor(c / 11)) % 11 === c % 11 ? 'OK' : 'CHECKSUM';
  },
};
