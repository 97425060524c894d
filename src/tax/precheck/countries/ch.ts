import { digit, isDigits, weightedSum } from '../checksums.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4];
const VAT_SUFFIX = /^CHE\d{9}(?:MWST|TVA|IVA|TPV)$/;

/**
 * Switzerland (UID): 'CHE' + 9 digits, optionally followed by the VAT suffix MWST, TVA, IVA or TPV,
 * which is dropped (the UID register looks up the UID). Bare 9 digits get 'CHE' prepended.
 * check = 11 - Σ mod 11, 11 → 0; a 10 is never issued.
 */
export const ch: CountryRule = {
  canonicalPrefix: '',
  toBody(value) {
    const n = value.length;
    if (n === 9 && isDigits(value)) return 'CHE' + value;
    if (n > 12 && VAT_SUFFIX.test(value)) return value.slice(0, 12);
    return value;
  },
  check(body) {
    if (body.length !== 12 || !body.startsWith('CHE') || !isDigits(body, 3)) return 'FORMAT';
    const c = 11 - (weightedSum(body, WEIGHTS, 3) % 11);
    if (c === 10) return 'CHECKSUM';
    return (c === 11 ? 0 : c) === digit(body, 11) ? 'OK' : 'CHECKSUM';
  },
};
