import { csvLine } from '../../core/csv-line.js';
import type { BatchRowResult } from '../batch/types.js';

/**
 * The outcome columns, after the input's own columns in CSV results, and the top-level fields of
 * an NDJSON results line (whose input cells are under `input`).
 */
export const OUTPUT_COLUMNS = [
  'row',
  'status',
  'outcome',
  'provider',
  'registryCompanyName',
  'companyNameMatch',
  'addressMatch',
  'validationResultId',
  'checkedAt',
  'validationRequestId',
  'code',
  'message',
] as const;

/**
 * The names the input columns are written under in CSV results: the header's own names, except
 * that a name equal to an outcome column (or an earlier one) is prefixed with `input.`.
 */
export function inputColumnNames(inputHeader: readonly string[]): string[] {
  const taken = new Set<string>(OUTPUT_COLUMNS);
  return inputHeader.map((name) => {
    let out = name;
    while (taken.has(out)) out = `input.${out}`;
    taken.add(out);
    return out;
  });
}

/** The input's cells for a row, exactly `width` of them (a short record padded, a long one cut). */
function cellsOf(record: readonly string[] | undefined, width: number): string[] {
  return Array.from({ length: width }, (_, i) => record?.[i] ?? '');
}

/**
 * Writes results joined to the input: each line carries the row's input cells and its outcome.
 * CSV: the input columns (see {@link inputColumnNames}) then {@link OUTPUT_COLUMNS}, input cells
 * neutralised against formula injection like every cell. NDJSON: the outcome fields plus
 * `input`, an object of the input cells under their header names.
 */
export class RowOutput {
  private readonly csvNames: string[];

  constructor(
    /** The input's header row. */
    readonly inputHeader: readonly string[],
    /** CSV (true) or NDJSON. */
    readonly csv: boolean,
  ) {
    this.csvNames = inputColumnNames(inputHeader);
  }

  /** The header line of CSV results; empty for NDJSON. */
  header(): string {
    return this.csv ? csvLine([...this.csvNames, ...OUTPUT_COLUMNS]) : '';
  }

  /** One output line for a row and its input cells. */
  line(result: BatchRowResult, record: readonly string[] | undefined): string {
    const cells = cellsOf(record, this.inputHeader.length);
    if (this.csv) return csvLine([...cells, ...OUTPUT_COLUMNS.map((c) => result[c])]);
    const line: Record<string, unknown> = {};
    for (const c of OUTPUT_COLUMNS) if (result[c] !== undefined) line[c] = result[c];
    const input: Record<string, string> = {};
    this.inputHeader.forEach((name, i) => {
      input[name] = cells[i] as string;
    });
    line.input = input;
    return `${JSON.stringify(line)}\n`;
  }
}

/** The rejects file header: row number, the input's own columns, code, message. */
export function rejectsHeader(inputHeader: readonly string[]): string {
  return csvLine(['row', ...inputHeader, 'code', 'message']);
}

export function rejectLine(
  row: number,
  record: readonly string[] | undefined,
  width: number,
  code: string,
  message: string,
): string {
  return csvLine([row, ...cellsOf(record, width), code, message]);
}
