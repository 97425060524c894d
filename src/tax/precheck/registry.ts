import { COUNTRY_TABLE, lookupCountry } from './countries.js';
import type { Provider } from './types.js';

/** The country codes {@link precheck} knows (EU-27 with both EL and GR, XI, GB, CH, NO, AU, NZ), sorted. */
export const SUPPORTED_COUNTRIES: readonly string[] = Object.freeze([...COUNTRY_TABLE.keys()].sort());

/**
 * The registry that confirms tax IDs of a country: EU-27 (GR and EL) and XI → 'VIES', GB → 'HMRC',
 * CH → 'SWISS_UID', NO → 'BRREG', AU → 'ABR', NZ → 'NZBN'. The code is trimmed and upper-cased.
 *
 * @returns the provider, or null for any other country code.
 * @example
 * registryFor('gr'); // 'VIES'
 * registryFor('US'); // null
 */
export function registryFor(countryCode: string): Provider | null {
  return lookupCountry(countryCode)?.provider ?? null;
}
