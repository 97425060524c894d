import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTaxId, precheck } from '../../../src/tax/precheck/index.js';
import { GENERATORS } from './generators.js';

const SEED = 181818;

/** The separators of issue 18: dashes, spaces and minus signs that PDFs, mails and spreadsheets carry. */
const PASTED_SEPARATORS = [
  '\u2010', // hyphen
  '\u2011', // non-breaking hyphen
  '\u2012', // figure dash
  '\u2013', // en dash
  '\u2014', // em dash
  '\u2015', // horizontal bar
  '\u2212', // minus sign
  '\u00a0', // no-break space
  '\u202f', // narrow no-break space
  '\u2007', // figure space
  '\u3000', // ideographic space
  '\u00ad', // soft hyphen
];

describe('pasted separators: every Unicode dash and space is removed', () => {
  it.each(PASTED_SEPARATORS.map((s) => [s.codePointAt(0)!.toString(16).padStart(4, '0'), s]))(
    'U+%s',
    (_hex, sep) => {
      expect(normalizeTaxId(`DE${sep}136${sep}695${sep}976`)).toBe('DE136695976');
      expect(precheck('DE', `DE 136${sep}695${sep}976`).valid).toBe(true);
    },
  );

  it('accepts the examples of the issue', () => {
    expect(precheck('DE', 'DE 136–695–976').canonical).toBe('DE136695976');
    expect(precheck('DE', 'DE\u2011136\u2212695\u202f976\u00a0').canonical).toBe('DE136695976');
  });
});

describe('full-width digits and letters map to ASCII (Unicode NFKC of U+FF01-U+FF5E)', () => {
  it('accepts full-width digits and letters, upper or lower case', () => {
    expect(precheck('DE', 'DE１３６６９５９７６').canonical).toBe('DE136695976');
    expect(precheck('DE', 'ｄｅ１３６－６９５－９７６').canonical).toBe('DE136695976');
    expect(normalizeTaxId('ＣＨＥ１０７．７８７．５７７　ＭＷＳＴ')).toBe('CHE107787577MWST');
  });

  it('still refuses a wrong check digit written in full width', () => {
    expect(precheck('DE', 'DE１３６６９５９７８').code).toBe('CHECKSUM');
  });
});

describe('notations: BE (0), CZ birth number slash, prefix followed by a colon', () => {
  it.each([
    ['BE', 'BE (0)468.561.072', 'BE0468561072'],
    ['BE', '(0)428.759.497', 'BE0428759497'],
    ['CZ', 'CZ 640229/4448', 'CZ6402294448'],
    ['DK', 'DK: 21599336', 'DK21599336'],
    ['DK', 'DK 21 59 93 36', 'DK21599336'],
  ])('%s %j', (cc, raw, canonical) => {
    expect(precheck(cc, raw).canonical).toBe(canonical);
  });
});

describe('property: a valid ID stays valid with pasted separators inserted anywhere', () => {
  const separator = fc.constantFrom(...PASTED_SEPARATORS, '/', ':', ' ', '.', '-');
  const insertions = fc.array(fc.tuple(fc.nat(), separator), { minLength: 1, maxLength: 6 });
  const insert = (value: string, at: ReadonlyArray<readonly [number, string]>): string => {
    let out = value;
    for (const [pos, sep] of at) {
      const i = pos % (out.length + 1);
      out = out.slice(0, i) + sep + out.slice(i);
    }
    return out;
  };

  it.each(Object.keys(GENERATORS).filter((k) => k !== 'CH_VAT'))('%s', (cc) => {
    let checked = 0;
    fc.assert(
      fc.property(GENERATORS[cc]!, insertions, (bodies, at) => {
        for (const body of bodies) {
          const r = precheck(cc, body);
          if (!r.valid) continue;
          checked++;
          const pasted = precheck(cc, insert(body, at));
          expect(pasted.valid, `${cc} ${JSON.stringify(insert(body, at))}`).toBe(true);
          expect(pasted.canonical).toBe(r.canonical);
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
    expect(checked).toBeGreaterThan(0);
  });
});

describe('property: long and short input normalize alike', () => {
  it('padding a value with spaces past 64 characters does not change its normalized form', () => {
    const unit = fc.constantFrom(...'0123456789abcDEF', ...PASTED_SEPARATORS, '１', 'ｄ', 'Ｅ', '／', '：');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (raw) => {
        expect(normalizeTaxId(raw + ' '.repeat(70))).toBe(normalizeTaxId(raw));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

describe('property: the one-scan normalization equals the plain regex formulation', () => {
  // The rule as the documentation states it, written the slow, obvious way.
  const reference = (raw: string): string =>
    raw
      .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/[\s._\-/:(),\u00ad\u2010-\u2015\u2212\ufe58\ufe63]+/g, '')
      .toUpperCase();

  it('agrees on short mixed input: letters, digits, notations, Unicode separators, full width, other scripts', () => {
    const unit = fc.constantFrom(
      ...'0123456789abcxyzABCXYZ+*#',
      ...' ._-/:(),\t',
      ...PASTED_SEPARATORS,
      '１',
      'ｄ',
      'Ｅ',
      '－',
      'ß',
      'é',
      '\ufe58',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (raw) => {
        expect(normalizeTaxId(raw)).toBe(reference(raw));
      }),
      { seed: SEED, numRuns: 5000 },
    );
  });
});
