import { digit, isDigits, isValidDate, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { CountryRule } from '../types.js';

const LEGAL = [1, 2, 3, 4, 5, 6, 7, 8];
const LEGAL_RETRY = [3, 4, 5, 6, 7, 8, 9, 10];
const EGN = [2, 4, 8, 5, 10, 9, 7, 3, 6];
const PNF = [21, 19, 17, 13, 11, 9, 7, 3, 1];
const OTHER = [4, 3, 2, 7, 6, 5, 4, 3, 2];

/**
 * Bulgaria: 9 digits (legal entities) or 10 digits (persons). A 10-digit number is accepted when it
 * is a valid EGN (with its birth date), a valid PNF (foreigner) or passes the "other" checksum.
 */
export const bg: CountryRule = {
  canonicalPrefix: 'BG',
  toBody: stripPrefix('BG'),
  check(body) {
    const n = body.length;
    if ((n !== 9 && n !== 10) || !isDigits(body)) return 'FORMAT';
    if (n === 9) {
      let r = weightedSum(body, LEGAL) % 11;
      if (r === 10) r = weightedSum(body, LEGAL_RETRY) % 11;
      return r % 10 === digit(body, 8) ? 'OK' : 'CHECKSUM';
    }
    return isEgn(body) || isPnf(body) || isOther(body) ? 'OK' : 'CHECKSUM';
  },
};

function isEgn(body: string): boolean {
  if ((weightedSum(body, EGN) % 11) % 10 !== digit(body, 9)) return false;
  let year = 1900 + digit(body, 0) * 10 + digit(body, 1);
  let month = digit(body, 2) * 10 + digit(body, 3);
  // Month +20 codes the 1800s, +40 the 2000s.
  if (month > 40) {
    year += 100;
    month -= 40;
  } else if (month > 20) {
    year -= 100;
    month -= 20;
  }
  return isValidDate(year, month, digit(body, 4) * 10 + digit(body, 5));
}

function isPnf(body: string): boolean {
  return weightedSum(body, PNF) % 10 === digit(body, 9);
}

function isOther(body: string): boolean {
  // A computed 10 can never match a single digit, so those numbers are never issued.
  return (11 - (weightedSum(body, OTHER) % 11)) % 11 === digit(body, 9);
}
