import { isDigits, mod11_10Valid } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/** Croatia (OIB): 11 digits, ISO 7064 MOD 11,10. */
export const hr: CountryRule = {
  canonicalPrefix: 'HR',
  toBody: stripPrefix('HR'),
  check(body) {
    if (body.length !== 11 || !isDigits(body)) return 'FORMAT';
    return mod11_10Valid(body) ? 'OK' : 'CHECKSUM';
  },
};
