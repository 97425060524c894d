import { lookupCountry } from './countries.js';
import { MAX_NORMALIZED_LENGTH, normalizeTaxId } from './normalize.js';
import type { PrecheckCode, PrecheckResult } from './types.js';

// The only failure whose `normalized` is known in advance.
const EMPTY: PrecheckResult = Object.freeze({
  valid: false,
  code: 'LENGTH',
  normalized: '',
  canonical: null,
});

function failure(code: PrecheckCode, normalized: string): PrecheckResult {
  return { valid: false, code, normalized, canonical: null };
}

/**
 * Offline structural check of a tax ID before it is sent to a registry. Never throws.
 *
 * Never refuses a number that is valid under a published rule: where a rule is uncertain it accepts
 * and leaves the decision to the registry.
 *
 * Steps: normalize the value ({@link normalizeTaxId}: pasted dashes, spaces, full-width characters
 * and the notations `(0)`, `:` and `/` are taken as written by people); an empty or over-long (more than
 * 20 characters) value is 'LENGTH' whatever the country; an unknown
 * country code (after trim and upper-case) is 'UNSUPPORTED_COUNTRY'; then the country's VAT prefix
 * is stripped at most once (GR/EL take 'EL' or 'GR', XI takes 'XI', NO an optional 'NO' and 'MVA',
 * CH keeps 'CHE' as part of the number, AU/NZ have none) and the body is checked for 'FORMAT'
 * (charset, length, fixed components, embedded dates) and then 'CHECKSUM'.
 *
 * Results are plain objects; the one for an empty value is shared and frozen, so treat results as
 * read-only.
 *
 * @param countryCode ISO 3166 alpha-2 code, plus 'EL' for Greece and 'XI' for Northern Ireland.
 * @param rawValue the tax ID as entered; the country prefix is optional.
 * @returns `canonical` is the registry form when valid (prefix + padded body, e.g. 'BE0428759497'
 *   for '428759497', 'CHE107787577' for 'CHE-107.787.577 MWST'), otherwise null.
 * @example
 * precheck('de', 'DE 136 695 976');
 * // { valid: true, code: 'OK', normalized: 'DE136695976', canonical: 'DE136695976' }
 * precheck('GR', '94259216').canonical; // 'EL094259216'
 */
export function precheck(countryCode: string, rawValue: string): PrecheckResult {
  const normalized = normalizeTaxId(rawValue);
  if (normalized.length === 0) return EMPTY;
  if (normalized.length > MAX_NORMALIZED_LENGTH) return failure('LENGTH', normalized);
  const entry = lookupCountry(countryCode);
  if (entry === undefined) return failure('UNSUPPORTED_COUNTRY', normalized);
  const rule = entry.rule;
  const body = rule.toBody(normalized);
  const code = rule.check(body);
  if (code !== 'OK') return failure(code, normalized);
  return { valid: true, code, normalized, canonical: rule.canonicalPrefix + body };
}
