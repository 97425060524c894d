import { at } from './countries/at.js';
import { au } from './countries/au.js';
import { be } from './countries/be.js';
import { bg } from './countries/bg.js';
import { ch } from './countries/ch.js';
import { cy } from './countries/cy.js';
import { cz } from './countries/cz.js';
import { de } from './countries/de.js';
import { dk } from './countries/dk.js';
import { ee } from './countries/ee.js';
import { el } from './countries/el.js';
import { es } from './countries/es.js';
import { fi } from './countries/fi.js';
import { fr } from './countries/fr.js';
import { gb, xi } from './countries/gb.js';
import { hr } from './countries/hr.js';
import { hu } from './countries/hu.js';
import { ie } from './countries/ie.js';
import { it } from './countries/it.js';
import { lt } from './countries/lt.js';
import { lu } from './countries/lu.js';
import { lv } from './countries/lv.js';
import { mt } from './countries/mt.js';
import { nl } from './countries/nl.js';
import { no } from './countries/no.js';
import { nz } from './countries/nz.js';
import { pl } from './countries/pl.js';
import { pt } from './countries/pt.js';
import { ro } from './countries/ro.js';
import { se } from './countries/se.js';
import { si } from './countries/si.js';
import { sk } from './countries/sk.js';
import type { CountryRule, Provider } from './types.js';

export interface CountryEntry {
  readonly rule: CountryRule;
  readonly provider: Provider;
}

function vies(rule: CountryRule): CountryEntry {
  return { rule, provider: 'VIES' };
}

/** Country code (upper case) → rule and registry. GR and EL share the Greek rule. */
export const COUNTRY_TABLE: ReadonlyMap<string, CountryEntry> = new Map<string, CountryEntry>([
  ['AT', vies(at)],
  ['BE', vies(be)],
  ['BG', vies(bg)],
  ['CY', vies(cy)],
  ['CZ', vies(cz)],
  ['DE', vies(de)],
  ['DK', vies(dk)],
  ['EE', vies(ee)],
  ['EL', vies(el)],
  ['GR', vies(el)],
  ['ES', vies(es)],
  ['FI', vies(fi)],
  ['FR', vies(fr)],
  ['HR', vies(hr)],
  ['HU', vies(hu)],
  ['IE', vies(ie)],
  ['IT', vies(it)],
  ['LT', vies(lt)],
  ['LU', vies(lu)],
  ['LV', vies(lv)],
  ['MT', vies(mt)],
  ['NL', vies(nl)],
  ['PL', vies(pl)],
  ['PT', vies(pt)],
  ['RO', vies(ro)],
  ['SE', vies(se)],
  ['SI', vies(si)],
  ['SK', vies(sk)],
  ['XI', vies(xi)],
  ['GB', { rule: gb, provider: 'HMRC' }],
  ['CH', { rule: ch, provider: 'SWISS_UID' }],
  ['NO', { rule: no, provider: 'BRREG' }],
  ['AU', { rule: au, provider: 'ABR' }],
  ['NZ', { rule: nz, provider: 'NZBN' }],
]);

// The same table indexed by the two letters' positions in the alphabet, so that an exact upper-case
// code is found with two charCodeAt reads and no hashing. Filled densely to keep the array packed.
const BY_LETTERS: ReadonlyArray<CountryEntry | undefined> = (() => {
  const byLetters = new Array<CountryEntry | undefined>(26 * 26).fill(undefined);
  for (const [code, entry] of COUNTRY_TABLE) byLetters[letterIndex(code)] = entry;
  return byLetters;
})();

// Index of a two upper-case letter code in BY_LETTERS, or -1 for anything else.
function letterIndex(code: string): number {
  if (code.length !== 2) return -1;
  const a = code.charCodeAt(0) - 65;
  const b = code.charCodeAt(1) - 65;
  return a >= 0 && a < 26 && b >= 0 && b < 26 ? a * 26 + b : -1;
}

/**
 * Looks up a country code after trimming and upper-casing it. Exact upper-case codes take the
 * fast path without allocating.
 */
export function lookupCountry(countryCode: string): CountryEntry | undefined {
  if (typeof countryCode !== 'string') return undefined;
  const at = letterIndex(countryCode);
  if (at >= 0) return BY_LETTERS[at];
  return COUNTRY_TABLE.get(countryCode.trim().toUpperCase());
}
