import { decimalValue, digit, isDigits, luhnCheckDigit } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { BodyCode, CountryRule } from '../types.js';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const CIF_LETTERS = 'JABCDEFGHI';
const CIF_TYPES = 'ABCDEFGHJNPQRSUVW';

/**
 * Spain (NIF): 9 characters, a letter or digit, 7 digits, a letter or digit (not digits at both ends).
 * DNI (8 digits + letter), NIE (X/Y/Z + 7 digits + letter), K/L/M (DNI letter over the 7 digits) or
 * CIF (entity letter + 7 digits + check). As python-stdnum, every CIF letter may carry either the
 * digit or the letter form of its check, since sources disagree on which types use which.
 */
export const es: CountryRule = {
  canonicalPrefix: 'ES',
  toBody: stripPrefix('ES'),
  check(body) {
    if (body.length !== 9 || !isDigits(body, 1, 8)) return 'FORMAT';
    const first = body.charCodeAt(0);
    const last = body.charCodeAt(8);
    const lastIsLetter = last >= 65 && last <= 90;
    if (!lastIsLetter && (last < 48 || last > 57)) return 'FORMAT';
    if (first >= 48 && first <= 57) {
      if (!lastIsLetter) return 'FORMAT';
      return letter(decimalValue(body, 0, 8), last);
    }
    if (first < 65 || first > 90) return 'FORMAT';
    if (first >= 88) {
      // NIE: X, Y, Z stand for 0, 1, 2 in front of the 7 digits.
      if (!lastIsLetter) return 'FORMAT';
      return letter((first - 88) * 10_000_000 + decimalValue(body, 1, 8), last);
    }
    if (first === 75 || first === 76 || first === 77) {
      if (!lastIsLetter) return 'FORMAT';
      return letter(decimalValue(body, 1, 8), last);
    }
    if (CIF_TYPES.indexOf(body[0]!) < 0) return 'FORMAT';
    const c = luhnCheckDigit(body, 1, 8);
    if (lastIsLetter) return CIF_LETTERS.charCodeAt(c) === last ? 'OK' : 'CHECKSUM';
    return digit(body, 8) === c ? 'OK' : 'CHECKSUM';
  },
};

function letter(n: number, actual: number): BodyCode {
  return DNI_LETTERS.charCodeAt(n % 23) === actual ? 'OK' : 'CHECKSUM';
}
