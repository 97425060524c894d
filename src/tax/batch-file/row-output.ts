import { csvLine } from '../../core/csv-line.js';
import type { BatchRowResult } from '../batch/types.js';

/** Columns of the CSV output (and the field order of NDJSON lines). */
export const OUTPUT_COLUMNS = [
  'row',
  'status',
  'validationRequestId',
  'validationResultId',
  'outcome',
  'provider',
  'code',
  'message',
] as const;

/** The header line of CSV results. */
export function csvHeader(): string {
  return csvLine([...OUTPUT_COLUMNS]);
}

/** One output line for a row, NDJSON or CSV. */
export function outputLine(result: BatchRowResult, csv: boolean): string {
  if (csv) return csvLine(OUTPUT_COLUMNS.map((c) => result[c]));
  const line: Record<string, unknown> = {};
  for (const c of OUTPUT_COLUMNS) if (result[c] !== undefined) line[c] = result[c];
  return `${JSON.stringify(line)}\n`;
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
  const cells = Array.from({ length: width }, (_, i) => record?.[i] ?? '');
  return csvLine([row, ...cells, code, message]);
}
