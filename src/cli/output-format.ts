import { choiceRefusal, oneOf } from './choices.js';

/** Output formats of `-o, --output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Checks an output format from the flag, `SVC_OUTPUT` or the profile; anything else is a usage error. */
export const parseOutputFormat = oneOf(OUTPUT_FORMATS, (value) =>
  choiceRefusal('--output', OUTPUT_FORMATS, value),
);

/** A table view of some data: column headers and rows of cells. */
export interface TableView {
  head: string[];
  rows: Array<Array<string | number | boolean | null | undefined>>;
  /**
   * The rows are `[field, value]` pairs of one object (see `fieldsView`): shown as a vertical
   * table, written to CSV as one row under a header of the field names. Default false.
   */
  record?: boolean;
}

export { csvField, csvLine, safeCsvCell } from '../core/csv-line.js';
