import { digit, isDigits, weightedSum } from '../checksums.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];

/**
 * Norway (organisasjonsnummer): 9 digits with optional 'NO' prefix and optional 'MVA' suffix (VAT
 * registration is a flag in the register, so the suffix is cosmetic). check = 11 - Σ mod 11,
 * 11 → 0, 10 never issued.
 */
export const no: CountryRule = {
  canonicalPrefix: 'NO',
  toBody(value) {
    const body = value.startsWith('NO') ? value.slice(2) : value;
    return body.endsWith('MVA') ? body.slice(0, -3) : body;
  },
  check(body) {
    if (body.length !== 9 || !isDigits(body)) return 'FORMAT';
    const c = 11 - (weightedSum(body, WEIGHTS) % 11);
    if (c === 10) return 'CHECKSUM';
    return (c === 11 ? 0 : c) === digit(body, 8) ? 'OK' : 'CHECKSUM';
  },
};
