import { type CsvStyle, csvHeaderLine, csvLine } from '../../../core/csv-line.js';
import type { BatchRowResult } from '../../../tax/batch/types.js';
import { inputColumnNames, OUTPUT_COLUMNS } from '../result-columns.js';

/**
 * How results are written: `csv` and `ndjson` for people and programs; `rows` is the working
 * file behind a workbook output (one JSON line per row: the outcome fields and `cells`, the input's
 * cells by position), from which the workbook is written.
 */
export type RowFormat = 'csv' | 'ndjson' | 'rows';

/** How CSV results and rejects are written (core/csv-line.ts: the one CSV writer). */
export type { CsvStyle };

const PLAIN: CsvStyle = { delimiter: ',', bom: false };

/** The input's cells for a row, exactly `width` of them (a short record padded, a long one cut). */
function cellsOf(record: readonly string[] | undefined, width: number): string[] {
  if (record && record.length === width) return record as string[];
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
  readonly format: RowFormat;
  /**
   * `,"name":` per input column, for NDJSON lines written as text; undefined when the header has
   * names an object would reorder or merge (duplicates, array indexes, `__proto__`).
   */
  private readonly inputKeys: string[] | undefined;

  constructor(
    /** The input's header row. */
    readonly inputHeader: readonly string[],
    /** CSV (true), NDJSON (false), or another {@link RowFormat}. */
    format: boolean | RowFormat,
    /** Delimiter and BOM of CSV results. Default `,` without a BOM. */
    readonly style: CsvStyle = PLAIN,
  ) {
    this.format = format === true ? 'csv' : format === false ? 'ndjson' : format;
    this.csvNames = inputColumnNames(inputHeader);
    const plain =
      new Set(inputHeader).size === inputHeader.length &&
      inputHeader.every((name) => name !== '__proto__' && !/^(0|[1-9]\d*)$/.test(name));
    this.inputKeys = plain
      ? inputHeader.map((name, i) => `${i === 0 ? '' : ','}${JSON.stringify(name)}:`)
      : undefined;
  }

  /** Whether the results are CSV. */
  get csv(): boolean {
    return this.format === 'csv';
  }

  /** The header line of CSV results (after a BOM when asked); empty for the other formats. */
  header(): string {
    if (!this.csv) return '';
    return csvHeaderLine([...this.csvNames, ...OUTPUT_COLUMNS], this.style);
  }

  /** One output line for a row and its input cells. */
  line(result: BatchRowResult, record: readonly string[] | undefined): string {
    const cells = cellsOf(record, this.inputHeader.length);
    if (this.csv) return csvLine([...cells, ...OUTPUT_COLUMNS.map((c) => result[c])], this.style.delimiter);
    if (this.format === 'ndjson' && this.inputKeys) return this.ndjsonText(result, cells, this.inputKeys);
    const line: Record<string, unknown> = {};
    for (const c of OUTPUT_COLUMNS) if (result[c] !== undefined) line[c] = result[c];
    if (this.format === 'rows') {
      line.cells = cells;
      return `${JSON.stringify(line)}\n`;
    }
    const input: Record<string, string> = {};
    this.inputHeader.forEach((name, i) => {
      input[name] = cells[i] as string;
    });
    line.input = input;
    return `${JSON.stringify(line)}\n`;
  }

  /** The same text as `JSON.stringify` of the NDJSON line object, built without the object (once per row). */
  private ndjsonText(result: BatchRowResult, cells: readonly string[], inputKeys: readonly string[]): string {
    let out = '{';
    for (let i = 0; i < OUTPUT_COLUMNS.length; i++) {
      const value = result[OUTPUT_COLUMNS[i] as (typeof OUTPUT_COLUMNS)[number]];
      if (value === undefined) continue;
      out += `${out.length === 1 ? '' : ','}${OUTCOME_KEYS[i]}${JSON.stringify(value)}`;
    }
    out += `${out.length === 1 ? '' : ','}"input":{`;
    for (let i = 0; i < inputKeys.length; i++) out += inputKeys[i] + JSON.stringify(cells[i]);
    return `${out}}}\n`;
  }
}

/** `"name":` per outcome column, for lines written as text. */
const OUTCOME_KEYS = OUTPUT_COLUMNS.map((c) => `"${c}":`);

/** The rejects file header: row, line, the input's own columns, code, message (after a BOM when asked). */
export function rejectsHeader(inputHeader: readonly string[], style: CsvStyle = PLAIN): string {
  return csvHeaderLine(['row', 'line', ...inputHeader, 'code', 'message'], style);
}

/** One line of the rejects file. */
export function rejectLine(
  result: Pick<BatchRowResult, 'row' | 'line' | 'code' | 'message'>,
  record: readonly string[] | undefined,
  width: number,
  style: CsvStyle = PLAIN,
): string {
  return csvLine(
    [result.row, result.line, ...cellsOf(record, width), result.code ?? 'REJECTED', result.message ?? ''],
    style.delimiter,
  );
}

/**
 * The style of CSV results and rejects: as `output` asks, else as the CSV came in (its delimiter,
 * and a BOM when it had one or was not UTF-8); for a workbook input (no dialect), `,` with a BOM.
 */
export function resultsStyle(
  output: { delimiter?: string; bom?: boolean },
  dialect: CsvStyle | undefined,
): CsvStyle {
  return {
    delimiter: output.delimiter ?? dialect?.delimiter ?? ',',
    bom: output.bom ?? dialect?.bom ?? dialect === undefined,
  };
}
