import { type RowReject, rowReject } from '../../../tax/batch/types.js';
import { lookupCountry } from '../../../tax/precheck/countries.js';
import { normalizeTaxId } from '../../../tax/precheck/index.js';
import type { ValidationRequest } from '../../../tax/request-schemas.js';
import { BatchInputError } from '../errors.js';

/**
 * Header names people give each request field, in English, German, French, Spanish, Italian and
 * Dutch, written as {@link headerKey} reduces them (lower case, no accents, no punctuation).
 */
export const COLUMN_NAMES: Readonly<Record<string, readonly string[]>> = {
  countryCode: [
    'countrycode',
    'country',
    'countryiso',
    'isocode',
    'land',
    'landcode',
    'landercode',
    'staat',
    'pays',
    'codepays',
    'pais',
    'codigopais',
    'paese',
    'codicepaese',
    'nazione',
  ],
  rawValue: [
    'rawvalue',
    'vatid',
    'vatnumber',
    'vatno',
    'vatnr',
    'vat',
    'vatregistrationnumber',
    'taxid',
    'ustidnr',
    'ustid',
    'ustidnummer',
    'ustnr',
    'umsatzsteueridentifikationsnummer',
    'umsatzsteuerid',
    'tva',
    'notva',
    'ntva',
    'numerotva',
    'numerodetva',
    'tvaintracommunautaire',
    'numerotvaintracommunautaire',
    'nif',
    'cif',
    'nifiva',
    'iva',
    'numeroiva',
    'numerodeiva',
    'nifcif',
    'partitaiva',
    'piva',
    'numeropartitaiva',
    'btw',
    'btwnummer',
    'btwnr',
    'btwid',
    'btwidentificatienummer',
  ],
  companyName: [
    'companyname',
    'company',
    'firma',
    'firmenname',
    'unternehmen',
    'societe',
    'raisonsociale',
    'nomsociete',
    'entreprise',
    'empresa',
    'razonsocial',
    'nombreempresa',
    'ragionesociale',
    'azienda',
    'denominazione',
    'bedrijfsnaam',
    'bedrijf',
  ],
  'address.street': [
    'street',
    'address',
    'strasse',
    'str',
    'adresse',
    'rue',
    'calle',
    'direccion',
    'domicilio',
    'via',
    'indirizzo',
    'straat',
    'adres',
  ],
  'address.postalCode': [
    'postalcode',
    'postcode',
    'zip',
    'zipcode',
    'plz',
    'postleitzahl',
    'codepostal',
    'cp',
    'codigopostal',
    'cap',
    'codiceavviamentopostale',
    'codicediavviamentopostale',
  ],
  'address.city': [
    'city',
    'town',
    'ort',
    'stadt',
    'ville',
    'ciudad',
    'localidad',
    'poblacion',
    'citta',
    'comune',
    'localita',
    'plaats',
    'woonplaats',
    'stad',
  ],
  'address.region': [
    'region',
    'state',
    'province',
    'bundesland',
    'provinz',
    'provincia',
    'regione',
    'departement',
    'provincie',
    'canton',
    'kanton',
  ],
  'address.countryCode': ['addresscountrycode', 'addresscountry'],
  requesterVatId: ['requestervatid'],
  preferredProvider: ['preferredprovider', 'provider'],
  idempotencyKey: ['idempotencykey'],
  correlationId: ['correlationid'],
};

const BY_KEY = new Map<string, string>(
  Object.entries(COLUMN_NAMES).flatMap(([field, names]) => names.map((n) => [n, field] as [string, string])),
);

/** A header name reduced for matching: `USt-IdNr.` -> `ustidnr`, `Straße` -> `strasse`, `Città` -> `citta`. */
export function headerKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * Metadata keys are limited to a-z, 0-9, `_` and `-`; a header such as `metadata.customerId` is
 * sent as `customer_id`, so ordinary spreadsheet headers work.
 */
export function metadataKey(header: string): string {
  return header
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s.]+/g, '_')
    .toLowerCase();
}

/** Where each column goes in a request. */
export interface ColumnMap {
  header: string[];
  /** Per column: the request field it fills (`address.city`, `metadata.<key>`), or undefined. */
  targets: Array<string | undefined>;
  ignored: string[];
  /** Metadata columns whose key was rewritten: header key -> sent key. */
  renamed: Array<[string, string]>;
  /** No country column: the country is taken from the VAT ID's prefix (`DE...`, `EL...` -> GR). */
  countryFromPrefix: boolean;
  /** How a reason names a request field: the user's column (`USt-IdNr`), else the field path. */
  fieldName: (path: string) => string;
}

const FIELDS = Object.keys(COLUMN_NAMES);

/** The accepted names, for an error message: `countryCode (Land, Pays, ...)`. */
function acceptedNames(): string {
  return `countryCode: ${COLUMN_NAMES.countryCode?.slice(1, 9).join(', ')}...; rawValue: ${COLUMN_NAMES.rawValue?.slice(1, 12).join(', ')}... (case, accents and punctuation ignored)`;
}

function columnsFound(header: readonly string[]): string {
  const list = header.map((h) => `'${h.trim()}'`).join(', ');
  return list.length > 300 ? `${list.slice(0, 300)}...` : list || 'none';
}

/** Resolves explicit `field=column` mappings to column indexes. */
function explicitTargets(
  header: readonly string[],
  columns: Readonly<Record<string, string>>,
): Map<number, string> {
  const out = new Map<number, string>();
  for (const [field, column] of Object.entries(columns)) {
    const meta = /^metadata\.(.+)$/.exec(field);
    if (!meta && !FIELDS.includes(field))
      throw new BatchInputError(
        `columns: unknown field '${field}' (fields: ${FIELDS.join(', ')}, metadata.<key>)`,
      );
    let index = header.findIndex((h) => h.trim() === column.trim());
    if (index === -1)
      index = header.findIndex((h) => headerKey(h) === headerKey(column) && headerKey(column) !== '');
    if (index === -1)
      throw new BatchInputError(
        `columns: no column '${column}' for ${field}; columns found: ${columnsFound(header)}`,
      );
    if (out.has(index)) throw new BatchInputError(`columns: column '${column}' is mapped twice`);
    out.set(index, meta ? `metadata.${metadataKey(meta[1] as string)}` : field);
  }
  return out;
}

/**
 * Maps header names to request fields: first the `explicit` mappings (`{ countryCode: 'Land' }`),
 * then the accepted names of {@link COLUMN_NAMES} (case-, accent- and punctuation-insensitive), and
 * `metadata.<key>`. A VAT ID column is required; without a country column the country comes
 * from the VAT ID's prefix. Unmappable columns are a {@link BatchInputError} naming the columns
 * found and the names accepted.
 */
export function mapColumns(header: string[], explicit: Readonly<Record<string, string>> = {}): ColumnMap {
  const renamed: Array<[string, string]> = [];
  const fixed = explicitTargets(header, explicit);
  const claimed = new Set(fixed.values());
  const targets = header.map((name, index) => {
    if (fixed.has(index)) return fixed.get(index);
    const meta = /^metadata\.(.+)$/i.exec(name.trim());
    if (meta) {
      const key = metadataKey(meta[1] as string);
      if (key !== meta[1]) renamed.push([meta[1] as string, key]);
      return `metadata.${key}`;
    }
    const field = BY_KEY.get(headerKey(name));
    return field !== undefined && claimed.has(field) ? undefined : field;
  });
  const seen = new Map<string, string>();
  targets.forEach((t, i) => {
    if (t === undefined) return;
    const previous = seen.get(t);
    if (previous !== undefined)
      throw new BatchInputError(
        `columns '${previous}' and '${header[i]?.trim()}' both mean ${t}: rename one, or choose with --columns ${t}=<column>`,
      );
    seen.set(t, header[i]?.trim() ?? '');
  });
  if (!seen.has('rawValue')) {
    throw new BatchInputError(
      `no VAT ID column found; columns found: ${columnsFound(header)}; accepted names: ${acceptedNames()}; or map them with --columns rawValue=<column>,countryCode=<column>`,
    );
  }
  const countryFromPrefix = !seen.has('countryCode');
  const fieldName = (path: string): string => {
    if (path === 'countryCode' && countryFromPrefix) return `the country prefix of ${seen.get('rawValue')}`;
    if (path.startsWith('customerMetadata.')) return seen.get(`metadata.${path.slice(17)}`) ?? path;
    return seen.get(path) ?? path;
  };
  return {
    header,
    targets,
    ignored: header.filter((_, i) => targets[i] === undefined),
    renamed,
    countryFromPrefix,
    fieldName,
  };
}

/** VAT prefixes that are not the ISO country code: Greece's EL, Switzerland's CHE. */
const PREFIX_COUNTRY: Readonly<Record<string, string>> = { EL: 'GR', CH: 'CH' };

/**
 * The country of a prefixed VAT ID (`DE136695976` -> DE, `EL094259216` -> GR, `XI...` -> XI,
 * `CHE-107.787.577` -> CH), or undefined when it starts with no known prefix.
 */
export function countryOfPrefix(rawValue: string): string | undefined {
  const prefix = normalizeTaxId(rawValue).slice(0, 2);
  if (!/^[A-Z]{2}$/.test(prefix)) return undefined;
  const country = PREFIX_COUNTRY[prefix] ?? prefix;
  return lookupCountry(country) ? country : undefined;
}

/** One record as a request; an empty cell is an absent field. */
export function recordToRequest(
  record: readonly string[],
  columns: ColumnMap,
): ValidationRequest | RowReject {
  if (record.length !== columns.header.length) {
    return rowReject('CSV', `expected ${columns.header.length} columns, found ${record.length}`);
  }
  const request: Record<string, unknown> = {};
  let address: Record<string, string> | undefined;
  let metadata: Record<string, string> | undefined;
  for (let i = 0; i < record.length; i++) {
    const target = columns.targets[i];
    const value = record[i];
    if (target === undefined || value === undefined || value === '') continue;
    if (target.startsWith('address.')) {
      address ??= {};
      address[target.slice(8)] = target === 'address.countryCode' ? value.trim().toUpperCase() : value;
    } else if (target.startsWith('metadata.')) {
      metadata ??= {};
      metadata[target.slice(9)] = value;
    } else if (target === 'countryCode' || target === 'preferredProvider') {
      request[target] = value.trim().toUpperCase();
    } else {
      request[target] = value;
    }
  }
  if (columns.countryFromPrefix && typeof request.rawValue === 'string') {
    const country = countryOfPrefix(request.rawValue);
    if (country === undefined) {
      const column = columns.fieldName('rawValue');
      return rowReject('COUNTRY', `${column} has no country prefix (such as DE or EL): add a country column`);
    }
    request.countryCode = country;
  }
  if (address) request.address = address;
  if (metadata) request.customerMetadata = metadata;
  return request as ValidationRequest;
}
