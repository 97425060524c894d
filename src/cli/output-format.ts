/** Output formats of `-o, --output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table view of some data: column headers and rows of cells. */
export interface TableView {
  head: string[];
  rows: Array<Array<string | number | boolean | null | undefined>>;
}

export { csvField, csvLine, safeCsvCell } from '../core/csv-line.js';
