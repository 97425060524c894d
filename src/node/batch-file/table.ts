/** One data row of an input table, with the row number a spreadsheet shows for it. */
export interface TableRow {
  cells: string[];
  /** The spreadsheet row number: the header is 1, blank rows and empty lines are counted. */
  line: number;
}

/** How a CSV input was written, so the results can be written the same way. */
export interface CsvDialect {
  /** `,`, `;` or tab. */
  delimiter: string;
  /** The input started with a byte order mark, or was not UTF-8 (Excel needs the BOM then). */
  bom: boolean;
}

/** An input opened for reading: CSV or a workbook's sheet. */
export interface InputTable {
  /** The header row's cells. */
  header: string[];
  /** The data rows; blank rows are passed over (their numbers still count). */
  rows: AsyncIterable<TableRow>;
  /**
   * The same rows, a batch at a time (as the reader gets them), for the hot path: one promise per
   * batch instead of one per row. Read either `rows` or `batches`, not both.
   */
  batches: AsyncIterable<TableRow[]>;
  /** For a CSV input: its delimiter and BOM. Undefined for a workbook. */
  dialect: CsvDialect | undefined;
}

/** Whether a record is a blank spreadsheet row (an empty line, or only empty cells). */
export function isBlank(cells: readonly string[]): boolean {
  for (const cell of cells) if (cell !== '') return false;
  return true;
}

/** The rows of a batch iterator, one at a time; `return()` is passed on (it closes the input). */
export function rowsOf<T>(batches: AsyncIterator<T[]>): AsyncIterator<T> {
  let batch: T[] = [];
  let at = 0;
  return {
    next: async () => {
      while (at >= batch.length) {
        const next = await batches.next();
        if (next.done) return { done: true, value: undefined };
        batch = next.value;
        at = 0;
      }
      return { done: false, value: batch[at++] as T };
    },
    return: async () => {
      await batches.return?.();
      return { done: true, value: undefined };
    },
  };
}

/** The rows of `rows` as batches of one (for a reader that has no batches of its own). */
export async function* batchesOf<T>(rows: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const row of rows) yield [row];
}
