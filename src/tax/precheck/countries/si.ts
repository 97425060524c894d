import { digit, isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2];

/** Slovenia (DDV): 8 digits, no leading 0; check = 11 - Σ mod 11, 10 → 0, 11 never issued. */
export const si: CountryRule = {
  canonicalPrefix: 'SI',
  toBody: stripPrefix('SI'),
  check(body) {
    if (body.length !== 8 || !isDigits(body) || body.charCodeAt(0) === 48) return 'FORMAT';
    const c = 11 - (weightedSum(body, WEIGHTS) % 11);
    return (c === 10 ? 0 : c) === digit(body, 7) ? 'OK' : 'CHECKSUM';
  },
};
