import { gs1Valid, isDigits } from '../checksums.js';
import type { CountryRule } from '../types.js';

/** New Zealand (NZBN): a 13-digit GS1 GLN, GS1 mod 10. No prefix; the '94' GS1 prefix is not enforced. */
export const nz: CountryRule = {
  canonicalPrefix: '',
  toBody: (value) => value,
  check(body) {
    if (body.length !== 13 || !isDigits(body)) return 'FORMAT';
    return gs1Valid(body) ? 'OK' : 'CHECKSUM';
  },
};
