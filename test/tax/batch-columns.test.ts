import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BatchInputError } from '../../src/node/batch-file/errors.js';
import { countryOfPrefix, headerKey, mapColumns } from '../../src/node/batch-file/input/columns.js';
import { runBatchFile } from '../../src/node/index.js';
import { validDe } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { failure, useTestClients } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-columns-'));
});
const file = (name: string) => join(dir, name);
const ndjson = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('header names are recognised case-, accent- and punctuation-insensitively in six languages', () => {
  const fields = [
    'countryCode',
    'rawValue',
    'companyName',
    'address.street',
    'address.postalCode',
    'address.city',
  ];
  it.each([
    ['English', ['Country', 'VAT number', 'Company', 'Street', 'ZIP', 'City']],
    ['German', ['Land', 'USt-IdNr.', 'Firma', 'Straße', 'PLZ', 'Ort']],
    ['German, other spelling', ['LAND ', 'UStID', 'firma', 'STRASSE', 'Postleitzahl', 'Stadt']],
    ['French', ['Pays', 'N° TVA', 'Raison sociale', 'Rue', 'Code postal', 'Ville']],
    ['Spanish', ['País', 'NIF', 'Empresa', 'Dirección', 'CP', 'Ciudad']],
    ['Spanish, CIF', ['Pais', 'CIF', 'Razón social', 'Calle', 'Código postal', 'Localidad']],
    ['Italian', ['Paese', 'Partita IVA', 'Ragione sociale', 'Indirizzo', 'CAP', 'Città']],
    ['Dutch', ['Land', 'BTW-nummer', 'Bedrijfsnaam', 'Straat', 'Postcode', 'Plaats']],
  ])('%s', (_, header) => {
    expect(mapColumns(header).targets).toEqual(fields);
  });

  it('every name in the table of docs/batch.md is recognised as its field', () => {
    const doc =
      readFileSync(new URL('../../docs/batch.md', import.meta.url), 'utf8')
        .split('## Columns')[1]
        ?.split('\n## ')[0] ?? '';
    const rows = [...doc.matchAll(/^\| `([\w.]+)`(?: \(VAT ID\))? +\| (.+?) +\|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(
      fields.slice(0, 2).concat(['companyName', ...fields.slice(3), 'address.region']),
    );
    for (const [, field, names] of rows)
      for (const name of (names as string).split(', '))
        expect([name, mapColumns(field === 'rawValue' ? [name] : [name, 'VAT']).targets[0]]).toEqual([
          name,
          field,
        ]);
  });

  it('reduces a name to lower-case letters and digits without accents', () => {
    expect(headerKey('USt-IdNr.')).toBe('ustidnr');
    expect(headerKey('Straße')).toBe('strasse');
    expect(headerKey('Città')).toBe('citta');
    expect(headerKey('N° TVA')).toBe('ntva');
  });

  it('a German list is validated with its company name and address sent', async () => {
    const de = validDe(7919);
    writeFileSync(file('kunden.csv'), `Land;USt-IdNr;Firma;Ort\nDE;DE${de};Müller GmbH;Köln\n`);
    const result = await runBatchFile(client().tax, {
      input: { path: file('kunden.csv') },
      output: { path: file('out.ndjson') },
      send: { strategy: 'single' },
    });
    expect(result.counts['completed:VALID']).toBe(1);
    const [row] = ndjson(file('out.ndjson'));
    const stored = await client().tax.getResult(String(row?.validationResultId));
    expect(stored.input).toMatchObject({
      countryCode: 'DE',
      companyName: 'Müller GmbH',
      address: { city: 'Köln' },
    });
    expect(row?.input).toEqual({ Land: 'DE', 'USt-IdNr': `DE${de}`, Firma: 'Müller GmbH', Ort: 'Köln' });
  });
});

describe('--columns maps columns explicitly (library option columns)', () => {
  it('names no alias knows; the other columns are still recognised', () => {
    const map = mapColumns(['Herkunft', 'Kennung', 'Firma'], {
      countryCode: 'Herkunft',
      rawValue: 'Kennung',
    });
    expect(map.targets).toEqual(['countryCode', 'rawValue', 'companyName']);
  });

  it('an explicit mapping wins over a recognised name', () => {
    const map = mapColumns(['Land', 'Lieferland', 'USt-IdNr'], { countryCode: 'Lieferland' });
    expect(map.targets).toEqual([undefined, 'countryCode', 'rawValue']);
  });

  it('metadata.<key> maps a column to a metadata key', () => {
    const map = mapColumns(['USt-IdNr', 'Kundennr'], { 'metadata.customerNo': 'Kundennr' });
    expect(map.targets).toEqual(['rawValue', 'metadata.customer_no']);
  });

  it('through the CLI: the rows are sent', async () => {
    writeFileSync(file('in.csv'), `Herkunft,Kennung\nDE,${validDe(11)}\n`);
    const run = await runSvc(
      [
        'batch',
        file('in.csv'),
        '--out',
        file('out.ndjson'),
        '--columns',
        'countryCode=Herkunft,rawValue=Kennung',
      ],
      { env: env() },
    );
    expect(run.code).toBe(0);
    expect(ndjson(file('out.ndjson'))[0]).toMatchObject({ status: 'submitted', line: 2 });
  });

  it.each([
    [
      ['--columns', 'rawValue=Nummer'],
      /no column 'Nummer' for rawValue; columns found: 'Herkunft', 'Kennung'/,
    ],
    [['--columns', 'vat=Kennung'], /unknown field 'vat'/],
    [['--columns', 'rawValue'], /--columns takes field=column pairs/],
    [['--columns', 'rawValue=Kennung,rawValue=Herkunft'], /maps rawValue twice/],
  ])('%j is one clear line and exit 2', async (flags, message) => {
    writeFileSync(file('in.csv'), `Herkunft,Kennung\nDE,${validDe(11)}\n`);
    const run = await runSvc(['batch', file('in.csv'), ...flags], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });
});

describe('a list with only a prefixed VAT ID column takes the country from the prefix', () => {
  it('DE, EL (Greece, sent as GR), XI (Northern Ireland), CHE (Switzerland)', () => {
    expect(countryOfPrefix('DE 136 695 976')).toBe('DE');
    expect(countryOfPrefix('EL094259216')).toBe('GR');
    expect(countryOfPrefix('XI 980 7806 84')).toBe('XI');
    expect(countryOfPrefix('CHE-107.787.577 MWST')).toBe('CH');
    expect(countryOfPrefix('136695976')).toBeUndefined();
    expect(countryOfPrefix('QQ123')).toBeUndefined();
  });

  it('rows are sent with that country; a number without a prefix is rejected naming the column', async () => {
    writeFileSync(file('in.csv'), `USt-IdNr\nDE${validDe(5)}\nEL094259216\n${validDe(6)}\n`);
    const result = await runBatchFile(client().tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      send: { strategy: 'single' },
    });
    expect(result.counts.rejected).toBe(1);
    const rows = ndjson(file('out.ndjson'));
    const countries = await Promise.all(
      rows
        .slice(0, 2)
        .map(async (r) => (await client().tax.getResult(String(r.validationResultId))).input?.countryCode),
    );
    expect(countries).toEqual(['DE', 'GR']);
    expect(rows[2]).toMatchObject({
      line: 4,
      status: 'rejected',
      code: 'COUNTRY',
      message: 'USt-IdNr has no country prefix (such as DE or EL): add a country column',
    });
  });
});

describe('when the columns cannot be mapped, the error lists the columns found and the names accepted', () => {
  it('no VAT ID column', async () => {
    writeFileSync(file('in.csv'), 'Kunde;Betrag\nA;1\n');
    const error = await failure(runBatchFile(client().tax, { input: { path: file('in.csv') } }));
    expect(error).toBeInstanceOf(BatchInputError);
    expect(error.message).toMatch(/columns found: 'Kunde', 'Betrag'/);
    expect(error.message).toMatch(/accepted names: countryCode: country, .*land.*; rawValue: .*ustidnr/);
  });

  it('two columns meaning the same field', () => {
    expect(() => mapColumns(['Land', 'Country', 'VAT'])).toThrow(
      "columns 'Land' and 'Country' both mean countryCode: rename one, or choose with --columns countryCode=<column>",
    );
  });

  it('through the CLI: exit 2, one line', async () => {
    writeFileSync(file('in.csv'), 'Kunde;Betrag\nA;1\n');
    const run = await runSvc(['batch', file('in.csv')], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/columns found: 'Kunde', 'Betrag'/);
  });
});
