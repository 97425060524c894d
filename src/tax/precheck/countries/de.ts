import { isDigits, mod11_10Valid } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/** Germany (USt-IdNr): 9 digits, never starting with 0, ISO 7064 MOD 11,10. */
export const de: CountryRule = {
  canonicalPrefix: 'DE',
  toBody: stripPrefix('DE'),
  check(body) {
    if (body.length !== 9 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    return mod11_10Valid(body) ? 'OK' : 'CHECKSUM';
  },
};
