import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_NORMALIZED_LENGTH,
  normalizeTaxId,
  type PrecheckCode,
  precheck,
  SUPPORTED_COUNTRIES,
} from '../../../src/tax/precheck/index.js';
import { GENERATORS } from './generators.js';

const CODES: readonly PrecheckCode[] = ['OK', 'LENGTH', 'FORMAT', 'CHECKSUM', 'UNSUPPORTED_COUNTRY'];
const SEED = 424242;

// Any UTF-16 code unit, so lone surrogates appear too ('binary' only yields whole code points).
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: codeUnit }),
  fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz .-_/+*') }),
);
const countryCode = fc.oneof(fc.constantFrom(...SUPPORTED_COUNTRIES, ' de ', 'gr', 'xi', 'US'), anyString);

describe('property: precheck never throws and its result is consistent', () => {
  it('for any country code and value', () => {
    fc.assert(
      fc.property(countryCode, anyString, (cc, raw) => {
        const r = precheck(cc, raw);
        expect(CODES).toContain(r.code);
        expect(r.valid).toBe(r.code === 'OK');
        expect(r.canonical === null).toBe(!r.valid);
        expect(r.normalized).toBe(normalizeTaxId(raw));
        if (r.normalized.length === 0 || r.normalized.length > MAX_NORMALIZED_LENGTH)
          expect(r.code).toBe('LENGTH');
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });

  it('for long values', () => {
    fc.assert(
      fc.property(countryCode, fc.string({ unit: codeUnit, minLength: 21, maxLength: 2000 }), (cc, raw) => {
        const r = precheck(cc, raw);
        expect(CODES).toContain(r.code);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('property: normalization', () => {
  it('is idempotent and leaves no separators or lower-case ASCII', () => {
    fc.assert(
      fc.property(anyString, (raw) => {
        const n = normalizeTaxId(raw);
        expect(normalizeTaxId(n)).toBe(n);
        expect(n).not.toMatch(/[\s._\-a-z]/);
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});

describe('property: canonical forms are fixed points', () => {
  it.each(Object.keys(GENERATORS).filter((k) => k !== 'CH_VAT'))('%s', (cc) => {
    fc.assert(
      fc.property(GENERATORS[cc]!, (bodies) => {
        for (const body of bodies) {
          const r = precheck(cc, body);
          if (!r.valid) continue;
          const again = precheck(cc, r.canonical!);
          expect(again.valid, `${cc} ${body} -> ${r.canonical}`).toBe(true);
          expect(again.canonical).toBe(r.canonical);
        }
      }),
      { seed: SEED, numRuns: 50 },
    );
  });
});
