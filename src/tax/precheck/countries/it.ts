import { decimalValue, isDigits, luhnValid } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/**
 * Italy (partita IVA): 11 digits, Luhn; the first 7 (company number) are not all zero and digits
 * 8-10 are a tax office code: 001-100, 120, 121, 888 or 999.
 */
export const it: CountryRule = {
  canonicalPrefix: 'IT',
  toBody: stripPrefix('IT'),
  check(body) {
    if (body.length !== 11 || !isDigits(body)) return 'FORMAT';
    if (decimalValue(body, 0, 7) === 0) return 'FORMAT';
    if (!isOfficeCode(decimalValue(body, 7, 10))) return 'FORMAT';
    return luhnValid(body) ? 'OK' : 'CHECKSUM';
  },
};

function isOfficeCode(office: number): boolean {
  return (
    (office >= 1 && office <= 100) || office === 120 || office === 121 || office === 888 || office === 999
  );
}
