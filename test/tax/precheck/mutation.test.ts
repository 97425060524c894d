import { describe, expect, it } from 'vitest';
import { precheck } from '../../../src/tax/precheck/index.js';
import { type KnownId, VALID_IDS } from './fixtures.js';
import { REFERENCE } from './reference.js';

/**
 * Schemes that catch every single-digit substitution, and why. A substitution changes one digit by
 * Δ ∈ ±1..9; the scheme catches it when weight · Δ can never vanish modulo its modulus and the map
 * from remainder to check character is injective (or the changed position is checked for format).
 */
const DETECTS_ALL: Readonly<Record<string, string>> = {
  AT: 'Luhn-style doubling is a permutation of 0-9',
  BE: 'mod 97 is prime and coprime to 10; check digits are the number 97 - r',
  CY: 'odd-position substitutes are distinct mod 26, even positions count as is',
  DE: 'ISO 7064 MOD 11,10 detects all single errors',
  DK: 'weights 2,7,6,5,4,3,2,1 are non-zero mod 11 (prime)',
  EE: 'weights 3,7,1 are units mod 10',
  ES: 'DNI/NIE/KLM: n mod 23 (prime, coprime to 10); CIF: Luhn',
  FI: 'weights are non-zero mod 11',
  HR: 'ISO 7064 MOD 11,10',
  HU: 'weights 9,7,3,1 are units mod 10',
  IE: 'weights 2..8 are non-zero mod 23 (prime)',
  IT: 'Luhn',
  LU: 'mod 89 is prime and coprime to 10',
  MT: 'weights < 37 (prime), check pair read as a number',
  PL: 'weights non-zero mod 11, the check is compared with the remainder',
  SE: 'Luhn (the 01 suffix is format)',
  SI: 'weights non-zero mod 11 and r -> check is injective (r = 0 is never issued)',
  SK: '10^k is ±1 mod 11, never 0',
  CH: 'weights non-zero mod 11 and r -> check is injective (10 never issued)',
  NO: 'weights non-zero mod 11 and r -> check is injective (10 never issued)',
  AU: 'weights < 89 (prime) and non-zero; the 10/99 twin needs two changed digits',
  NZ: 'GS1 weights 1 and 3 are units mod 10',
};

/**
 * Schemes that provably miss some single-digit substitutions; for these the production code must
 * agree with the naive re-implementation in reference.ts on every mutation.
 */
const MISSES_SOME: Readonly<Record<string, string>> = {
  BG: 'remainders 0 and 10 both give check 0; 10-digit numbers pass any of three schemes',
  CZ: 'legal/special/birth numbers map 11 remainders onto 10 digits; 9-digit birth numbers have no check',
  EL: 'mod 11 mod 10 maps remainders 0 and 10 to 0',
  GR: 'mod 11 mod 10 maps remainders 0 and 10 to 0',
  LT: 'remainder 10 retries, then mod 10',
  LV: 'personal codes use mod 11 mod 10; a change of first digit switches scheme',
  NL: 'the B suffix is outside the 11-test; a value failing one scheme may pass the other',
  PT: 'check values 10 and 11 both map to 0',
  RO: 'check value 10 maps to 0',
  GB: 'two accepted residues (weight 6 · Δ 7 = 42 moves 0 to 42); branch digits and GD/HA carry no check',
  XI: 'as GB',
  FR: 'alphabetic keys: changing the digit of a mixed key can keep the key congruent',
};

function mutations(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    for (let d = 0; d <= 9; d++) {
      if (d !== c - 48) out.push(value.slice(0, i) + String(d) + value.slice(i + 1));
    }
  }
  return out;
}

const byCountry = new Map<string, KnownId[]>();
for (const id of VALID_IDS) byCountry.set(id.country, [...(byCountry.get(id.country) ?? []), id]);

describe('single-digit mutations of valid curated IDs', () => {
  it('classifies every country with a curated valid ID', () => {
    for (const cc of byCountry.keys()) {
      expect(cc in DETECTS_ALL !== cc in MISSES_SOME, cc).toBe(true);
    }
  });

  for (const [cc, ids] of byCountry) {
    if (cc in DETECTS_ALL) {
      it(`${cc}: every mutation fails (${DETECTS_ALL[cc]})`, () => {
        for (const { body } of ids) {
          expect(precheck(cc, body).valid, body).toBe(true);
          for (const m of mutations(body)) {
            const r = precheck(cc, m);
            expect(r.valid, `${body} -> ${m}`).toBe(false);
            expect(['CHECKSUM', 'FORMAT']).toContain(r.code);
          }
        }
      });
    } else {
      it(`${cc}: mutations agree with the reference (${MISSES_SOME[cc]})`, () => {
        const ref = REFERENCE[cc]!;
        let missed = 0;
        for (const { body } of ids) {
          expect(ref(body), body).toBe(true);
          for (const m of mutations(body)) {
            const valid = precheck(cc, m).valid;
            expect(valid, `${body} -> ${m}`).toBe(ref(m));
            if (valid) missed++;
          }
        }
        // Informative: the schemes still catch the vast majority.
        expect(missed).toBeLessThan(ids.length * 20);
      });
    }
  }
});
