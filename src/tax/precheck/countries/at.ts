import { digit, isDigits } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/** Austria (UID): 'U' + 8 digits. The 'U' is part of the number, so '13585627' alone is FORMAT. */
export const at: CountryRule = {
  canonicalPrefix: 'AT',
  toBody: stripPrefix('AT'),
  check(body) {
    if (body.length !== 9 || body.charCodeAt(0) !== 85 || !isDigits(body, 1)) return 'FORMAT';
    // Luhn-style weights 1,2,1,2,1,2,1 on the 7 digits; the +4 is the constant part of the scheme.
    let sum = 0;
    for (let i = 1; i <= 7; i++) {
      let p = digit(body, i);
      if (i % 2 === 0) {
        p *= 2;
        if (p > 9) p -= 9;
      }
      sum += p;
    }
    return (10 - ((sum + 4) % 10)) % 10 === digit(body, 8) ? 'OK' : 'CHECKSUM';
  },
};
