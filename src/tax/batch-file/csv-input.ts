import { createReadStream, type ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { type RowReject, rowReject } from '../batch/types.js';
import type { ValidationRequest } from '../request-schemas.js';
import { decodeBytes, decodingStream, type InputEncoding } from './encoding.js';
import { BatchInputError } from './errors.js';

/** UTF-8, with or without a BOM (csv-parse drops it): the default reading. */
const UTF8: InputEncoding = { encoding: 'utf-8', bomBytes: 0, source: 'default' };

/** Largest CSV record accepted; a larger one is one clear error instead of unbounded memory. */
export const MAX_RECORD_BYTES = 1024 * 1024;

const ALIASES: Record<string, string> = {
  country: 'countryCode',
  countrycode: 'countryCode',
  vatid: 'rawValue',
  rawvalue: 'rawValue',
  companyname: 'companyName',
  requestervatid: 'requesterVatId',
  preferredprovider: 'preferredProvider',
  provider: 'preferredProvider',
  idempotencykey: 'idempotencyKey',
  correlationid: 'correlationId',
  street: 'address.street',
  postalcode: 'address.postalCode',
  city: 'address.city',
  region: 'address.region',
  addresscountrycode: 'address.countryCode',
};

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
  targets: Array<string | undefined>;
  ignored: string[];
  /** Metadata columns whose key was rewritten: header key -> sent key. */
  renamed: Array<[string, string]>;
}

/** Maps header names (case-insensitive, with aliases) to request fields; `metadata.<key>` keeps the key as written. */
export function mapColumns(header: string[]): ColumnMap {
  const renamed: Array<[string, string]> = [];
  const targets = header.map((name) => {
    const trimmed = name.trim();
    const meta = /^metadata\.(.+)$/i.exec(trimmed);
    if (meta) {
      const key = metadataKey(meta[1] as string);
      if (key !== meta[1]) renamed.push([meta[1] as string, key]);
      return `metadata.${key}`;
    }
    return ALIASES[trimmed.toLowerCase().replace(/[\s_-]/g, '')];
  });
  const seen = new Set<string>();
  for (const t of targets) {
    if (t === undefined) continue;
    if (seen.has(t)) throw new BatchInputError(`CSV header maps two columns to ${t}`);
    seen.add(t);
  }
  if (!seen.has('countryCode') || !seen.has('rawValue')) {
    throw new BatchInputError('CSV header needs countryCode (or country) and rawValue (or vatId) columns');
  }
  return { header, targets, ignored: header.filter((_, i) => targets[i] === undefined), renamed };
}

/** One CSV record as a request; an empty cell is an absent field. */
export function recordToRequest(record: string[], columns: ColumnMap): ValidationRequest | RowReject {
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
  if (address) request.address = address;
  if (metadata) request.customerMetadata = metadata;
  return request as ValidationRequest;
}

/** Picks `,`, `;` or tab: the one that occurs most in the first line, outside quotes. */
export function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch] = (counts[ch] ?? 0) + 1;
  }
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return best && best[1] > 0 ? best[0] : ',';
}

/** Reads the start of a file to find its first line, decoded (BOM removed). */
async function firstLineOf(path: string, encoding: InputEncoding): Promise<string> {
  const stream: ReadStream = createReadStream(path, { start: encoding.bomBytes, end: 65535 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = decodeBytes(Buffer.concat(chunks), encoding.encoding).replace(/^\uFEFF/, '');
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/** A parsed CSV input: its column map and an iterator of `[rowNumber, record]`. */
export interface CsvInput {
  columns: ColumnMap;
  /** The detected field delimiter. */
  delimiter: string;
  records: AsyncIterable<string[]>;
}

/**
 * Opens a CSV file with csv-parse's stream API, decoded as `encoding` says (streamed): header row,
 * delimiter detected, BOM stripped,
 * quoted fields with newlines; records of the wrong width come through (and are rejected per row).
 */
export async function openCsv(path: string, encoding: InputEncoding = UTF8): Promise<CsvInput> {
  const delimiter = detectDelimiter(await firstLineOf(path, encoding));
  const { parse, CsvError } = await import('csv-parse');
  const csvError = (error: unknown): never => {
    if (error instanceof CsvError) {
      const line = (error as unknown as { lines?: number }).lines;
      throw new BatchInputError(
        `CSV input is malformed${line ? ` near line ${line}` : ''}: ${error.message.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
    }
    throw error;
  };
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_empty_lines: true,
  });
  const source: Readable = createReadStream(path, { start: encoding.bomBytes });
  // UTF-8 goes to csv-parse as bytes (it decodes them itself); other encodings through iconv-lite.
  const decoder = encoding.encoding === 'utf-8' ? undefined : decodingStream(encoding.encoding);
  source.on('error', (error) => parser.destroy(error));
  decoder?.on('error', (error) => parser.destroy(error));
  (decoder ? source.pipe(decoder) : source).pipe(parser);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const first = await iterator.next().catch(csvError);
  if (first.done) throw new BatchInputError('the CSV input is empty: a header row is required');
  const columns = mapColumns(first.value);
  return {
    columns,
    delimiter,
    records: {
      [Symbol.asyncIterator]: () => ({
        next: () => iterator.next().catch(csvError),
        return: async () => {
          parser.destroy();
          decoder?.destroy();
          source.destroy();
          return { done: true, value: undefined };
        },
      }),
    },
  };
}
