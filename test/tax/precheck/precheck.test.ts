import { describe, expect, it } from 'vitest';
import {
  MAX_NORMALIZED_LENGTH,
  normalizeTaxId,
  type PrecheckCode,
  precheck,
  registryFor,
  SUPPORTED_COUNTRIES,
} from '../../../src/tax/precheck/index.js';

const EU27 = 'AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');

describe('normalizeTaxId: upper-case, drop whitespace . - _', () => {
  it.each([
    [' de 136.695-976 ', 'DE136695976'],
    ['be_0428_759_497', 'BE0428759497'],
    ['\tNL\n004495445\rb01', 'NL004495445B01'],
    ['CHE\u00a0107\u2009787\u3000577 mwst', 'CHE107787577MWST'],
    ['\ufeffDE136695976', 'DE136695976'],
    ['', ''],
    [' .-_ ', ''],
  ])('%j -> %j', (raw, expected) => {
    expect(normalizeTaxId(raw)).toBe(expected);
  });

  it('also drops the notations ( ) / : , people write around numbers', () => {
    expect(normalizeTaxId('be(0)428/759:497,')).toBe('BE0428759497');
  });

  it('keeps characters that can be part of a number', () => {
    expect(normalizeTaxId('ie8+79739i')).toBe('IE8+79739I');
    expect(normalizeTaxId('ie8*79739i')).toBe('IE8*79739I');
  });

  it('upper-cases beyond ASCII (length may change)', () => {
    expect(normalizeTaxId('straße')).toBe('STRASSE');
  });

  it('returns canonical ASCII input unchanged and treats non-strings as empty', () => {
    expect(normalizeTaxId('DE136695976')).toBe('DE136695976');
    expect(normalizeTaxId(undefined as unknown as string)).toBe('');
    expect(normalizeTaxId(136695976 as unknown as string)).toBe('');
  });

  it('is what precheck reports as normalized, whatever the outcome', () => {
    for (const [cc, raw] of [
      ['de', ' de 136.695-976 '],
      ['DE', 'de 136 695 978'],
      ['US', '12-3456789'],
      ['AT', 'x'.repeat(25)],
    ] as const) {
      expect(precheck(cc, raw).normalized).toBe(normalizeTaxId(raw));
    }
  });
});

describe('result shape: valid iff OK, canonical iff valid', () => {
  it.each([
    ['DE', 'DE136695976', 'OK'],
    ['DE', 'DE136695978', 'CHECKSUM'],
    ['DE', 'DE13669597', 'FORMAT'],
    ['DE', '', 'LENGTH'],
    ['US', '123456789', 'UNSUPPORTED_COUNTRY'],
  ] as const)('%s %s -> %s', (cc, raw, code: PrecheckCode) => {
    const r = precheck(cc, raw);
    expect(r.code).toBe(code);
    expect(r.valid).toBe(code === 'OK');
    expect(r.canonical === null).toBe(code !== 'OK');
    expect(Object.keys(r).sort()).toEqual(['canonical', 'code', 'normalized', 'valid']);
  });
});

describe('country code: trimmed and upper-cased; unknown -> UNSUPPORTED_COUNTRY', () => {
  it('accepts any case and surrounding whitespace', () => {
    for (const cc of ['de', ' De ', '\tDE\n']) expect(precheck(cc, '136695976').code).toBe('OK');
  });

  it.each(['US', 'D', 'DEU', '', 'EU', 'UK', 'D E'])('%j is unsupported', (cc) => {
    expect(precheck(cc, '136695976').code).toBe('UNSUPPORTED_COUNTRY');
  });

  it('treats a non-string country code as unsupported', () => {
    expect(precheck(null as unknown as string, '136695976').code).toBe('UNSUPPORTED_COUNTRY');
  });

  it('lists the EU-27 (with both EL and GR), XI, GB, CH, NO, AU and NZ', () => {
    expect([...SUPPORTED_COUNTRIES].sort()).toEqual(
      [...EU27, 'GR', 'XI', 'GB', 'CH', 'NO', 'AU', 'NZ'].sort(),
    );
    expect(Object.isFrozen(SUPPORTED_COUNTRIES)).toBe(true);
  });
});

describe('20-character limit and empty input -> LENGTH', () => {
  it('allows exactly 20 normalized characters', () => {
    expect(MAX_NORMALIZED_LENGTH).toBe(20);
    const r = precheck('DE', '1'.repeat(20));
    expect(r.code).toBe('FORMAT');
  });

  it('rejects 21 characters for every country, before the country is looked up', () => {
    for (const cc of [...SUPPORTED_COUNTRIES, 'US', '']) {
      const r = precheck(cc, '1'.repeat(21));
      expect(r.code).toBe('LENGTH');
      expect(r.normalized).toBe('1'.repeat(21));
    }
  });

  it('counts after normalization: separators do not count', () => {
    expect(precheck('CH', 'CHE-107.787.577 MWST').code).toBe('OK');
    expect(precheck('DE', `${' '.repeat(30)}136695976${'-'.repeat(30)}`).code).toBe('OK');
  });

  it('rejects empty and separator-only values as LENGTH, even for unknown countries', () => {
    for (const raw of ['', '   ', '.-_', '\u00a0']) {
      expect(precheck('DE', raw).code).toBe('LENGTH');
      expect(precheck('US', raw).code).toBe('LENGTH');
    }
  });

  it('handles multi-megabyte input', () => {
    const huge = 'ab-'.repeat(6_000_000);
    const r = precheck('DE', huge);
    expect(r.code).toBe('LENGTH');
    expect(r.normalized.length).toBe(12_000_000);
    expect(r.normalized.startsWith('ABAB')).toBe(true);
  });
});

describe('country prefix is stripped at most once', () => {
  const samples: ReadonlyArray<readonly [string, string]> = [
    ['AT', 'U13585627'],
    ['BE', '0428759497'],
    ['BG', '175074752'],
    ['CY', '10259033P'],
    ['CZ', '25123891'],
    ['DE', '136695976'],
    ['DK', '13585628'],
    ['EE', '100931558'],
    ['ES', 'B58378431'],
    ['FI', '20774740'],
    ['FR', '40303265045'],
    ['HR', '33392005961'],
    ['HU', '12892312'],
    ['IE', '6433435F'],
    ['IT', '00743110157'],
    ['LT', '119511515'],
    ['LU', '15027442'],
    ['LV', '40003521600'],
    ['MT', '11679112'],
    ['NL', '004495445B01'],
    ['PL', '8567346215'],
    ['PT', '501964843'],
    ['RO', '18547290'],
    ['SE', '123456789701'],
    ['SI', '50223054'],
    ['SK', '2022749619'],
    ['GB', '980780684'],
    ['XI', '432525179'],
  ];

  it.each(samples)('%s: body, prefix + body are OK; doubled prefix is FORMAT', (cc, body) => {
    expect(precheck(cc, body).code).toBe('OK');
    expect(precheck(cc, cc + body).code).toBe('OK');
    expect(precheck(cc, cc.toLowerCase() + ' ' + body).code).toBe('OK');
    expect(precheck(cc, cc + cc + body).code).toBe('FORMAT');
    expect(precheck(cc, cc + body).canonical).toBe(cc + body);
  });

  it('Greece: country GR or EL, value prefix EL or GR, canonical EL', () => {
    for (const cc of ['GR', 'EL', 'gr', 'el']) {
      for (const raw of ['094259216', 'EL094259216', 'GR094259216', 'el 94259216']) {
        expect(precheck(cc, raw)).toMatchObject({ code: 'OK', canonical: 'EL094259216' });
      }
      for (const raw of ['ELEL094259216', 'GRGR094259216', 'ELGR094259216', 'GREL094259216']) {
        expect(precheck(cc, raw).code).toBe('FORMAT');
      }
    }
  });

  it('XI takes only the XI prefix, GB only GB', () => {
    expect(precheck('XI', 'XI432525179').canonical).toBe('XI432525179');
    expect(precheck('XI', 'GB432525179').code).toBe('FORMAT');
    expect(precheck('GB', 'XI432525179').code).toBe('FORMAT');
    expect(precheck('GB', 'GB432525179').canonical).toBe('GB432525179');
  });

  it("France: the key may itself be 'FR', decided by length", () => {
    // 13 characters: prefix + key 'FR' + SIREN.
    expect(precheck('FR', 'FRFR732829338')).toMatchObject({ code: 'OK', canonical: 'FRFR732829338' });
    // 11 characters: this is the body, with key 'FR'.
    expect(precheck('FR', 'FR732829338')).toMatchObject({ code: 'OK', canonical: 'FRFR732829338' });
    expect(precheck('FR', 'FRFR40303265045').code).toBe('FORMAT');
    expect(precheck('FR', 'FRFRFR732829338').code).toBe('FORMAT');
  });

  it("Switzerland: 'CHE' is part of the number; bare 9 digits get it added", () => {
    expect(precheck('CH', '107787577').canonical).toBe('CHE107787577');
    expect(precheck('CH', 'CHCHE107787577').code).toBe('FORMAT');
    expect(precheck('CH', 'CHECHE107787577').code).toBe('FORMAT');
    expect(precheck('CH', 'CH107787577').code).toBe('FORMAT');
    expect(precheck('CH', '107787577MWST').code).toBe('FORMAT');
    expect(precheck('CH', 'CHE107787577MWSTMWST').code).toBe('FORMAT');
  });

  it("Norway: optional 'NO' prefix and 'MVA' suffix, each at most once", () => {
    for (const raw of ['988077917', 'NO988077917', '988077917MVA', 'NO 988 077 917 MVA']) {
      expect(precheck('NO', raw)).toMatchObject({ code: 'OK', canonical: 'NO988077917' });
    }
    expect(precheck('NO', 'NONO988077917').code).toBe('FORMAT');
    expect(precheck('NO', '988077917MVAMVA').code).toBe('FORMAT');
    expect(precheck('NO', 'MVA988077917').code).toBe('FORMAT');
  });

  it('Australia and New Zealand take no prefix', () => {
    expect(precheck('AU', 'AU51824753556').code).toBe('FORMAT');
    expect(precheck('NZ', 'NZ9429050294954').code).toBe('FORMAT');
  });

  it('does not strip another country prefix', () => {
    expect(precheck('DE', 'AT136695976').code).toBe('FORMAT');
    expect(precheck('AT', 'DEU13585627').code).toBe('FORMAT');
  });
});

describe('canonical registry forms', () => {
  it.each([
    ['DE', 'de 136 695 976', 'DE136695976'],
    ['GR', '094259216', 'EL094259216'],
    ['AT', 'u13585627', 'ATU13585627'],
    ['BE', '428.759.497', 'BE0428759497'],
    ['NL', 'NL4495445B01', 'NL004495445B01'],
    ['XI', '432525179', 'XI432525179'],
    ['GB', '980 7806 84', 'GB980780684'],
    ['GB', '980780684001', 'GB980780684001'],
    ['GB', 'gd001', 'GBGD001'],
    ['CH', 'CHE-107.787.577 MWST', 'CHE107787577'],
    ['NO', '988077917 MVA', 'NO988077917'],
    ['AU', '51 824 753 556', '51824753556'],
    ['NZ', '9429050294954', '9429050294954'],
  ])('%s %j -> %s', (cc, raw, canonical) => {
    expect(precheck(cc, raw).canonical).toBe(canonical);
  });
});

describe('registryFor', () => {
  it('maps EU-27, GR, EL and XI to VIES', () => {
    for (const cc of [...EU27, 'GR', 'XI']) expect(registryFor(cc)).toBe('VIES');
  });

  it.each([
    ['GB', 'HMRC'],
    ['CH', 'SWISS_UID'],
    ['NO', 'BRREG'],
    ['AU', 'ABR'],
    ['NZ', 'NZBN'],
    [' gb ', 'HMRC'],
    ['el', 'VIES'],
  ])('%j -> %s', (cc, provider) => {
    expect(registryFor(cc)).toBe(provider);
  });

  it.each(['US', 'UK', 'EU', '', 'CHE'])('%j -> null', (cc) => {
    expect(registryFor(cc)).toBeNull();
  });

  it('has a provider for every supported country', () => {
    for (const cc of SUPPORTED_COUNTRIES) expect(registryFor(cc)).not.toBeNull();
  });
});
