import { isDigits, luhnValid } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

/** Sweden (momsregistreringsnummer): organisationsnummer/personnummer (10 digits, Luhn) + '01'. */
export const se: CountryRule = {
  canonicalPrefix: 'SE',
  toBody: stripPrefix('SE'),
  check(body) {
    if (body.length !== 12 || !isDigits(body) || !body.endsWith('01')) return 'FORMAT';
    return luhnValid(body, 0, 10) ? 'OK' : 'CHECKSUM';
  },
};
