import { createHash } from 'node:crypto';

const NAMES = [
  'Nordlicht',
  'Alpenblick',
  'Seaside',
  'Harbour',
  'Meridian',
  'Lindenhof',
  'Brightwater',
  'Kestrel',
  'Solstice',
  'Oakfield',
];
const TRADES = [
  'Logistics',
  'Software',
  'Trading',
  'Foods',
  'Engineering',
  'Textiles',
  'Consulting',
  'Energy',
];
const FORMS: Record<string, string> = {
  DE: 'GmbH',
  AT: 'GmbH',
  CH: 'AG',
  FR: 'SAS',
  ES: 'S.L.',
  IT: 'S.r.l.',
  NL: 'B.V.',
  BE: 'BV',
  GB: 'Ltd',
  XI: 'Ltd',
  NO: 'AS',
  AU: 'Pty Ltd',
  NZ: 'Limited',
  PL: 'Sp. z o.o.',
  SE: 'AB',
  DK: 'ApS',
  FI: 'Oy',
};
const CITIES = [
  'Berlin',
  'Vienna',
  'Zurich',
  'Paris',
  'Madrid',
  'Rome',
  'Amsterdam',
  'Oslo',
  'Sydney',
  'Auckland',
  'Dublin',
  'Warsaw',
];

/** What the fixture registry knows about an identifier. */
export interface RegistryRecord {
  companyName: string;
  address: { street: string; postalCode: string; city: string; countryCode: string };
  sourceReference: string;
}

/** A deterministic registry entry for a canonical ID: the same ID always gets the same company. */
export function registryRecord(countryCode: string, canonical: string): RegistryRecord {
  const h = createHash('sha256').update(canonical).digest();
  const pick = <T>(list: readonly T[], i: number) => list[(h[i] ?? 0) % list.length] as T;
  const form = FORMS[countryCode] ?? 'Ltd';
  return {
    companyName: `${pick(NAMES, 0)} ${pick(TRADES, 1)} ${form}`,
    address: {
      street: `${pick(['Main Street', 'Hauptstrasse', 'Market Square', 'Harbour Road'], 2)} ${((h[3] ?? 0) % 200) + 1}`,
      postalCode: String(10000 + ((((h[4] ?? 0) << 8) | (h[5] ?? 0)) % 89999)),
      city: pick(CITIES, 6),
      countryCode: countryCode === 'EL' ? 'GR' : countryCode,
    },
    sourceReference: `REF-${h.subarray(8, 14).toString('hex').toUpperCase()}`,
  };
}
