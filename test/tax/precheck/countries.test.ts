import { describe, expect, it } from 'vitest';
import { type PrecheckCode, precheck } from '../../../src/tax/precheck/index.js';
import { APPENDIX_A, EXTRA } from './fixtures.js';

// The value prefix each country uses in a raw value (none for CH/NO/AU/NZ in the fixtures).
const VALUE_PREFIX: Readonly<Record<string, string>> = { GR: 'EL', CH: '', NO: '', AU: '', NZ: '' };
const prefixOf = (cc: string): string => VALUE_PREFIX[cc] ?? cc;

type Case = readonly [value: string, code: PrecheckCode];

function expectCodes(cc: string, cases: readonly Case[]): void {
  for (const [value, code] of cases) {
    expect(precheck(cc, value).code, `${cc} ${value}`).toBe(code);
  }
}

describe('Appendix A known IDs (expected column is the truth)', () => {
  it.each(APPENDIX_A.map((k) => [k.country, k.body, k.valid, k.note ?? ''] as const))(
    '%s %s valid=%s %s',
    (cc, body, valid) => {
      expect(precheck(cc, body).valid).toBe(valid);
      expect(precheck(cc, prefixOf(cc) + body).valid).toBe(valid);
    },
  );
});

describe('further curated IDs', () => {
  it.each(EXTRA.map((k) => [k.country, k.body, k.valid, k.note ?? ''] as const))(
    '%s %s valid=%s %s',
    (cc, body, valid) => {
      expect(precheck(cc, body).valid).toBe(valid);
    },
  );
});

describe('AT: U + 8 digits, weights 1,2,1,2,… digit-summed, +4, mod 10', () => {
  it('needs the U and 8 digits', () => {
    expectCodes('AT', [
      ['U13585627', 'OK'],
      ['ATU13585627', 'OK'],
      ['13585627', 'FORMAT'],
      ['U1358562', 'FORMAT'],
      ['U135856270', 'FORMAT'],
      ['X13585627', 'FORMAT'],
      ['U13585626', 'CHECKSUM'],
    ]);
  });
});

describe('BE: [01] + 9 digits, 97 - (first 8 mod 97); legacy 9 digits padded', () => {
  it('accepts the 0- and 1-series, pads the 9-digit form', () => {
    expectCodes('BE', [
      ['0428759497', 'OK'],
      ['428759497', 'OK'],
      ['1001686633', 'OK'],
      ['1006023325', 'OK'],
      ['2000000097', 'FORMAT'],
      ['42875949', 'FORMAT'],
      ['00428759497', 'FORMAT'],
      ['0431150351', 'CHECKSUM'],
    ]);
    expect(precheck('BE', '428759497').canonical).toBe('BE0428759497');
  });

  it('takes check digits 97 (first 8 ≡ 0 mod 97) but never 00', () => {
    expectCodes('BE', [
      ['0000009797', 'OK'],
      ['0000009700', 'CHECKSUM'],
    ]);
  });
});

describe('BG: 9 digits (legal) or 10 digits (EGN, PNF or other)', () => {
  it('checks 9-digit legal entities, with the weights-3..10 retry', () => {
    expectCodes('BG', [
      ['175074752', 'OK'],
      ['204514061', 'OK'],
      ['831919536', 'OK'],
      ['175074751', 'CHECKSUM'],
      ['17507475', 'FORMAT'],
      ['17507475A', 'FORMAT'],
    ]);
  });

  it('accepts a 10-digit EGN only with a real birth date (month +20: 1800s, +40: 2000s)', () => {
    expectCodes('BG', [
      ['7523169263', 'OK'],
      ['8032056031', 'OK'],
      ['7542011030', 'OK'],
      // EGN checksum right but 30 February 1980: not an EGN, and not a PNF or "other" either.
      ['8002300001', 'CHECKSUM'],
    ]);
  });

  it('accepts PNF (foreigner) and "other" 10-digit numbers', () => {
    expectCodes('BG', [
      ['7111042925', 'OK'],
      ['7111042922', 'CHECKSUM'],
    ]);
  });
});

describe('CY: 8 digits + letter, odd-position substitution, mod 26; prefix 12 rejected', () => {
  it('checks format, the 12 prefix and the letter', () => {
    expectCodes('CY', [
      ['10259033P', 'OK'],
      ['10259033Z', 'CHECKSUM'],
      ['102590331', 'FORMAT'],
      ['1025903P', 'FORMAT'],
      ['12000139V', 'FORMAT'],
    ]);
  });
});

describe('CZ: 8 legal, 9 special (6…), or rodné číslo', () => {
  it('checks 8-digit legal entities (not starting 9)', () => {
    expectCodes('CZ', [
      ['25123891', 'OK'],
      ['27082440', 'OK'],
      ['25123890', 'CHECKSUM'],
      ['95123891', 'FORMAT'],
    ]);
  });

  it('checks 9-digit special numbers starting 6', () => {
    expectCodes('CZ', [
      ['640903926', 'OK'],
      ['699000899', 'OK'],
      ['682127228', 'OK'],
      ['640903927', 'CHECKSUM'],
    ]);
  });

  it('checks 10-digit birth numbers: date, women +50, +20/+70, mod 11 with 10 -> 0', () => {
    expectCodes('CZ', [
      ['7103192745', 'OK'],
      ['7103192746', 'CHECKSUM'],
      // Serial overflow (+20, +70): 2004-03-19 and a woman born 2004-03-19.
      ['0423190009', 'OK'],
      ['0473190003', 'OK'],
      // Women (+50), 1971-03-19; 715319274 mod 11 = 10 gives check digit 0.
      ['7153192740', 'OK'],
      ['7153192741', 'CHECKSUM'],
      ['1103492745', 'FORMAT'],
      ['7102302745', 'FORMAT'],
      ['7143192745', 'FORMAT'],
      ['7193192745', 'FORMAT'],
    ]);
  });

  it('accepts 9-digit birth numbers only for births before 1954', () => {
    expectCodes('CZ', [
      ['530312123', 'OK'],
      ['835312123', 'OK'],
      ['590312123', 'FORMAT'],
      // The +20 serial overflow dates from 2004 and exists only in 10-digit numbers.
      ['532312123', 'FORMAT'],
    ]);
  });

  it('validates leap days', () => {
    expectCodes('CZ', [
      ['0402290009', 'OK'],
      ['0302290000', 'FORMAT'],
    ]);
  });
});

describe('DE: 9 digits, no leading 0, ISO 7064 MOD 11,10', () => {
  it('checks', () => {
    expectCodes('DE', [
      ['136695976', 'OK'],
      ['136695978', 'CHECKSUM'],
      ['036695976', 'FORMAT'],
      ['000000020', 'FORMAT'],
      ['13669597', 'FORMAT'],
    ]);
  });
});

describe('DK: 8 digits, no leading 0, weights 2,7,6,5,4,3,2,1 mod 11', () => {
  it('checks', () => {
    expectCodes('DK', [
      ['13585628', 'OK'],
      ['13585627', 'CHECKSUM'],
      ['03585628', 'FORMAT'],
    ]);
  });
});

describe('EE: 9 digits, weights 3,7,1 mod 10', () => {
  it('checks', () => {
    expectCodes('EE', [
      ['100931558', 'OK'],
      ['100594103', 'CHECKSUM'],
      ['10093155', 'FORMAT'],
    ]);
  });
});

describe('EL/GR: 9 digits, powers of 2 mod 11 mod 10; legacy 8 digits padded', () => {
  it('checks', () => {
    expectCodes('GR', [
      ['094259216', 'OK'],
      ['94259216', 'OK'],
      ['123456781', 'CHECKSUM'],
      ['9425921', 'FORMAT'],
    ]);
    expect(precheck('EL', '94259216').canonical).toBe('EL094259216');
  });
});

describe('ES: DNI, NIE, K/L/M and CIF', () => {
  it('checks DNI and NIE letters', () => {
    expectCodes('ES', [
      ['54362315K', 'OK'],
      ['54362315Z', 'CHECKSUM'],
      ['X5253868R', 'OK'],
      ['X5910266W', 'OK'],
      ['X5253868A', 'CHECKSUM'],
      ['543623150', 'FORMAT'],
      ['X52538680', 'FORMAT'],
    ]);
  });

  it('checks K/L/M with the DNI letter over 7 digits', () => {
    expectCodes('ES', [
      ['M1234567L', 'OK'],
      ['K1234567L', 'OK'],
      ['M1234567T', 'CHECKSUM'],
    ]);
  });

  it('accepts either the digit or the letter form of a CIF check, for every entity letter', () => {
    expectCodes('ES', [
      ['B58378431', 'OK'],
      ['B5837843A', 'OK'],
      ['Q2876031B', 'OK'],
      ['Q28760312', 'OK'],
      ['B64717839', 'CHECKSUM'],
      ['I58378431', 'FORMAT'],
      ['B5837843', 'FORMAT'],
      ['BB8378431', 'FORMAT'],
    ]);
  });
});

describe('FI: 8 digits, weights 7,9,10,5,8,4,2,1 mod 11', () => {
  it('checks', () => {
    expectCodes('FI', [
      ['20774740', 'OK'],
      ['20774741', 'CHECKSUM'],
      ['2077474', 'FORMAT'],
    ]);
  });
});

describe('FR: key + SIREN (Luhn unless 000…), numeric and alphabetic keys', () => {
  it('checks numeric keys and the SIREN', () => {
    expectCodes('FR', [
      ['40303265045', 'OK'],
      ['45497709824', 'OK'],
      ['84323140391', 'CHECKSUM'],
      // Right numeric key for SIREN 303265046, which fails Luhn.
      ['43303265046', 'CHECKSUM'],
    ]);
  });

  it('checks alphabetic and mixed keys, excluding I and O', () => {
    expectCodes('FR', [
      ['K7399859412', 'OK'],
      ['4Z123456782', 'OK'],
      ['K7399859413', 'CHECKSUM'],
      ['IO334175221', 'FORMAT'],
      ['1O334175221', 'FORMAT'],
    ]);
  });

  it('skips Luhn for Monaco SIRENs starting 000', () => {
    // (12 + 3 · (1234 mod 97)) mod 97 = 28; 000001234 fails Luhn.
    expectCodes('FR', [
      ['28000001234', 'OK'],
      ['29000001234', 'CHECKSUM'],
    ]);
  });
});

describe('HR: 11 digits, ISO 7064 MOD 11,10', () => {
  it('checks', () => {
    expectCodes('HR', [
      ['33392005961', 'OK'],
      ['33392005962', 'CHECKSUM'],
      ['3339200596', 'FORMAT'],
    ]);
  });
});

describe('HU: 8 digits, weights 9,7,3,1 mod 10', () => {
  it('checks', () => {
    expectCodes('HU', [
      ['12892312', 'OK'],
      ['12892313', 'CHECKSUM'],
      ['128923121', 'FORMAT'],
    ]);
  });
});

describe('IE: 7 digits + letter (+ letter), or the old form', () => {
  it('checks the current and 2013 forms', () => {
    expectCodes('IE', [
      ['6433435F', 'OK'],
      ['6433435OA', 'OK'],
      ['3286438VH', 'OK'],
      ['6433435E', 'CHECKSUM'],
      ['6433435OB', 'CHECKSUM'],
      ['6433435FZ', 'FORMAT'],
      ['6433435Z', 'FORMAT'],
    ]);
  });

  it("checks the old form (second character a letter, '+' or '*')", () => {
    expectCodes('IE', [
      ['8D79739I', 'OK'],
      ['8Y41127O', 'OK'],
      ['8+79739I', 'OK'],
      ['8*79739I', 'OK'],
      ['8D79739J', 'CHECKSUM'],
      ['8?79739J', 'FORMAT'],
      ['8D79739IA', 'FORMAT'],
    ]);
  });
});

describe('IT: 11 digits, Luhn, office code, non-zero company number', () => {
  it('checks', () => {
    expectCodes('IT', [
      ['00743110157', 'OK'],
      ['00743110158', 'CHECKSUM'],
      // Office code 101 is not assigned; 0000000 is not a company number.
      ['00743111014', 'FORMAT'],
      ['00000001234', 'FORMAT'],
    ]);
  });
});

describe('LT: 9 digits (8th = 1) or 12 digits (11th = 1)', () => {
  it('checks', () => {
    expectCodes('LT', [
      ['119511515', 'OK'],
      ['100001919017', 'OK'],
      ['100001919018', 'CHECKSUM'],
      ['119511525', 'FORMAT'],
      ['100001919027', 'FORMAT'],
      ['1195115151', 'FORMAT'],
    ]);
  });
});

describe('LU: 8 digits, first 6 mod 89 = last 2', () => {
  it('checks', () => {
    expectCodes('LU', [
      ['15027442', 'OK'],
      ['26166606', 'OK'],
      ['15027443', 'CHECKSUM'],
    ]);
  });
});

describe('LV: legal (first digit > 3) or personal code', () => {
  it('checks legal entities', () => {
    expectCodes('LV', [
      ['40003521600', 'OK'],
      ['40003521601', 'CHECKSUM'],
    ]);
  });

  it('checks date-coded personal codes', () => {
    expectCodes('LV', [
      ['16117519997', 'OK'],
      ['16117519998', 'CHECKSUM'],
      ['31027519995', 'FORMAT'],
    ]);
  });

  it('accepts any personal code issued since July 2017 (32-39, no date, no check digit)', () => {
    expectCodes('LV', [
      ['33274961852', 'OK'],
      ['32104468364', 'OK'],
      ['32117519995', 'OK'],
      ['39999999999', 'OK'],
      ['LV35000000000', 'OK'],
      ['3210446836', 'FORMAT'],
      ['3210446836X', 'FORMAT'],
    ]);
  });
});

describe('MT: 8 digits, no leading 0, mod 37', () => {
  it('checks', () => {
    expectCodes('MT', [
      ['11679112', 'OK'],
      ['11679113', 'CHECKSUM'],
      ['01679112', 'FORMAT'],
    ]);
  });
});

describe('NL: 9 digits + B + 2 digits, 11-test or mod 97-10', () => {
  it('accepts either scheme and pads short numbers', () => {
    expectCodes('NL', [
      ['004495445B01', 'OK'],
      ['4495445B01', 'OK'],
      ['002455799B11', 'OK'],
      ['001439542B97', 'OK'],
      ['123456789B90', 'CHECKSUM'],
    ]);
  });

  it('rejects B00, an all-zero number and a malformed suffix', () => {
    expectCodes('NL', [
      ['004495445B00', 'FORMAT'],
      ['000000000B01', 'FORMAT'],
      ['004495445C01', 'FORMAT'],
      ['004495445B1', 'FORMAT'],
      ['0004495445B01', 'FORMAT'],
    ]);
  });
});

describe('PL: 10 digits, weights 6,5,7,2,3,4,5,6,7 mod 11', () => {
  it('checks', () => {
    expectCodes('PL', [
      ['8567346215', 'OK'],
      ['8567346216', 'CHECKSUM'],
      ['856734621', 'FORMAT'],
    ]);
  });
});

describe('PT: 9 digits, no leading 0, mod 11', () => {
  it('checks', () => {
    expectCodes('PT', [
      ['501964843', 'OK'],
      ['501964842', 'CHECKSUM'],
      ['001964843', 'FORMAT'],
    ]);
  });
});

describe('RO: 2-10 digits, no leading 0, no CNP', () => {
  it('checks', () => {
    expectCodes('RO', [
      ['18547290', 'OK'],
      ['18547291', 'CHECKSUM'],
      ['08547290', 'FORMAT'],
      ['1', 'FORMAT'],
      ['12345678901', 'FORMAT'],
      // A valid CNP (13 digits) is a personal number, not a VAT registration.
      ['1630615123457', 'FORMAT'],
    ]);
  });
});

describe('SE: 10 digits Luhn + 01', () => {
  it('checks', () => {
    expectCodes('SE', [
      ['123456789701', 'OK'],
      ['123456789101', 'CHECKSUM'],
      ['123456789702', 'FORMAT'],
      ['1234567897', 'FORMAT'],
    ]);
  });
});

describe('SI: 8 digits, no leading 0, 11 - mod 11 (10 -> 0, 11 invalid)', () => {
  it('checks', () => {
    expectCodes('SI', [
      ['50223054', 'OK'],
      ['50223055', 'CHECKSUM'],
      ['05022305', 'FORMAT'],
    ]);
  });
});

describe('SK: 10 digits, third digit 2-4 or 7-9, mod 11', () => {
  it('checks', () => {
    expectCodes('SK', [
      ['2022749619', 'OK'],
      ['1078449064', 'OK'],
      ['2022749618', 'CHECKSUM'],
      // A birth number (third digit 0/1/5/6) is not an IČ DPH.
      ['7103192745', 'FORMAT'],
      ['0022749619', 'FORMAT'],
    ]);
  });
});

describe('GB/XI: 9 or 12 digits (residue 0 or 42), GD000-GD499, HA500-HA999', () => {
  it('checks both schemes and the branch form', () => {
    expectCodes('GB', [
      ['980780684', 'OK'],
      ['340804329', 'OK'],
      ['980780684001', 'OK'],
      ['802311781', 'CHECKSUM'],
      ['98078068', 'FORMAT'],
      ['9807806840', 'FORMAT'],
    ]);
  });

  it('rejects residue 55 and the 9755 scheme below 100 000 000', () => {
    // Σ(100000089) = 8 + 89 = 97 ≡ 0; Σ(100000034) = 8 + 34 = 42; Σ(100000047) = 8 + 47 = 55.
    expectCodes('GB', [
      ['100000089', 'OK'],
      ['100000034', 'OK'],
      ['100000047', 'CHECKSUM'],
      // 000000042: Σ = 42, the 9755 scheme, but the number predates it.
      ['000000042', 'CHECKSUM'],
      ['000000097', 'OK'],
    ]);
  });

  it('checks government departments and health authorities', () => {
    expectCodes('GB', [
      ['GD001', 'OK'],
      ['GD499', 'OK'],
      ['GD500', 'FORMAT'],
      ['HA500', 'OK'],
      ['HA999', 'OK'],
      ['HA499', 'FORMAT'],
      ['12345', 'FORMAT'],
      ['GD8888', 'FORMAT'],
    ]);
  });

  it('accepts the 11-character EU forms GD8888 + 5 digits and HA8888 + 5 digits', () => {
    expectCodes('GB', [
      ['GD888812345', 'OK'],
      ['GBGD888800001', 'OK'],
      ['HA888899999', 'OK'],
      ['GD88881234', 'FORMAT'],
      ['GD8888123456', 'FORMAT'],
      ['GD88881234X', 'FORMAT'],
      ['GD777712345', 'FORMAT'],
    ]);
    expect(precheck('GB', 'GB GD8888 12345').canonical).toBe('GBGD888812345');
    expect(precheck('XI', 'HA888812345').valid).toBe(true);
  });

  it('uses the same rules for XI', () => {
    expectCodes('XI', [
      ['432525179', 'OK'],
      ['151308443', 'OK'],
      ['GD001', 'OK'],
      ['432525178', 'CHECKSUM'],
    ]);
  });
});

describe('CH: CHE + 9 digits (+ MWST/TVA/IVA/TPV), check 10 never issued', () => {
  it('checks', () => {
    expectCodes('CH', [
      ['CHE100155212', 'OK'],
      ['CHE107787577MWST', 'OK'],
      ['CHE107787577TPV', 'OK'],
      ['CHE100155213', 'CHECKSUM'],
      ['CHE107787577VAT', 'FORMAT'],
      ['CHE10778757', 'FORMAT'],
    ]);
  });

  it('rejects numbers whose check would be 10', () => {
    // 10000000: Σ = 5, check 6. 10000007: Σ = 33 ≡ 0, check 11 -> 0. 10000016: Σ = 45 ≡ 1, check 10.
    expectCodes('CH', [
      ['CHE100000006', 'OK'],
      ['CHE100000070', 'OK'],
    ]);
    for (let d = 0; d <= 9; d++) expect(precheck('CH', `CHE10000016${d}`).code).toBe('CHECKSUM');
  });
});

describe('NO: 9 digits, mod 11 (check 10 never issued)', () => {
  it('checks', () => {
    expectCodes('NO', [
      ['988077917', 'OK'],
      ['995525828MVA', 'OK'],
      ['988077918', 'CHECKSUM'],
      ['98807791', 'FORMAT'],
    ]);
  });
});

describe('AU: ABN, official mod 89 rule', () => {
  it('checks', () => {
    expectCodes('AU', [
      ['51824753556', 'OK'],
      ['83914571673', 'OK'],
      ['99999999999', 'CHECKSUM'],
      ['5182475355', 'FORMAT'],
      ['01824753556', 'FORMAT'],
    ]);
  });

  it('accepts both twins of a 10/99 check pair', () => {
    // 99291417776 is valid with check pair 99; 99 ≡ 10 (mod 89) after subtracting 1 from the first digit.
    expectCodes('AU', [
      ['99291417776', 'OK'],
      ['10291417776', 'OK'],
    ]);
  });
});

describe('NZ: NZBN, 13 digits GS1 mod 10', () => {
  it('checks', () => {
    expectCodes('NZ', [
      ['9429050294954', 'OK'],
      ['9429046393920', 'OK'],
      ['9429050294955', 'CHECKSUM'],
      ['942905029495', 'FORMAT'],
    ]);
  });
});
