import { decimalValue, isDigits, weightedSum } from '../checksums.js';
import { stripPrefix } from '../prefix.js';
import type { BodyCode, CountryRule } from '../types.js';

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 1];

/**
 * UK VAT registration number body: 9 digits, 12 digits (branch: the check covers the first 9),
 * GD000-GD499 (government departments) or HA500-HA999 (health authorities), the forms HMRC's VAT
 * Notice 700/1 and the EU's VIES number-format table give. The same two in their 11-character EU
 * form, 'GD8888' or 'HA8888' + 5 digits (listed by VIES and accepted by python-stdnum), are taken
 * without a further check: no published rule for those 5 digits was found, so the registry decides.
 * Σ mod 97 must be 0 (original scheme) or 42 (the "9755" scheme, S + 55 + check ≡ 0); numbers below
 * 100 000 000 predate 9755 and only take 0. Residue 55, which python-stdnum also accepts, has no
 * known real example and is rejected.
 */
function checkGb(body: string): BodyCode {
  const n = body.length;
  if (n === 11 && (body.startsWith('GD8888') || body.startsWith('HA8888'))) {
    return isDigits(body, 6) ? 'OK' : 'FORMAT';
  }
  if (n === 5) {
    if (!isDigits(body, 2)) return 'FORMAT';
    const v = decimalValue(body, 2, 5);
    if (body.startsWith('GD')) return v < 500 ? 'OK' : 'FORMAT';
    if (body.startsWith('HA')) return v >= 500 ? 'OK' : 'FORMAT';
    return 'FORMAT';
  }
  if ((n !== 9 && n !== 12) || !isDigits(body)) return 'FORMAT';
  const r = weightedSum(body, WEIGHTS) % 97;
  if (r === 0) return 'OK';
  return r === 42 && decimalValue(body, 0, 3) >= 100 ? 'OK' : 'CHECKSUM';
}

/** Great Britain (HMRC). Canonical form keeps the branch digits: 'GB' + 9 or 12 digits. */
export const gb: CountryRule = { canonicalPrefix: 'GB', toBody: stripPrefix('GB'), check: checkGb };

/** Northern Ireland: GB numbers under the VIES prefix XI. */
export const xi: CountryRule = { canonicalPrefix: 'XI', toBody: stripPrefix('XI'), check: checkGb };
