import { oneOf } from './choices.js';

/** Output formats of `-o, --output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Checks an output format from the flag, `SVC_OUTPUT` or the profile; anything else is a usage error. */
export const parseOutputFormat = oneOf(
  OUTPUT_FORMATS,
  (value) => `--output must be one of ${OUTPUT_FORMATS.join(', ')}, got '${value}'`,
);

/** A table view of some data: column headers and rows of cells. */
export interface TableView {
  head: string[];
  rows: Array<Array<string | number | boolean | null | undefined>>;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises spreadsheet formula injection: a cell starting with `=`, `+`, `-`, `@`, tab or
 * carriage return gets a leading apostrophe, so a spreadsheet shows it as text. Plain negative
 * numbers are left alone.
 */
export function safeCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text) && !/^-\d+(\.\d+)?$/.test(text)) return `'${text}`;
  return text;
}

/** Quotes one CSV field when needed (RFC 4180). */
export function csvField(value: unknown): string {
  const text = safeCsvCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with a trailing newline. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\n`;
}
