import { readFile } from 'node:fs/promises';
import type { BatchRowResult } from '../batch/types.js';
import { NUMBER_COLUMNS, OUTPUT_COLUMNS, type RowFormat } from './row-output.js';

/** A row of an earlier run as its results file holds it: the outcome and the input's cells. */
export interface KeptRow {
  result: BatchRowResult;
  record: string[];
}

/**
 * Rows of an earlier run, read back from the first `upTo` bytes of its joined NDJSON, CSV or
 * workbook rows file (see `RowOutput`); `inputHeader` is the input's header row, `delimiter` the
 * CSV results' delimiter (default `,`).
 */
export async function readBackRows(
  path: string,
  format: boolean | RowFormat,
  upTo: number,
  inputHeader: readonly string[],
  delimiter = ',',
): Promise<KeptRow[]> {
  const csv = format === true || format === 'csv';
  const text = (await readFile(path)).subarray(0, upTo).toString('utf8');
  if (!csv)
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { input, cells, ...result } = JSON.parse(line) as BatchRowResult & {
          input?: Record<string, string>;
          cells?: string[];
        };
        return { result, record: cells ?? inputHeader.map((name) => input?.[name] ?? '') };
      });
  const { parse } = await import('csv-parse/sync');
  const records = parse(text, { from_line: 2, relax_column_count: true, delimiter, bom: true }) as string[][];
  const width = inputHeader.length;
  return records.map((cells) => {
    const row: Record<string, unknown> = {};
    OUTPUT_COLUMNS.forEach((c, i) => {
      const value = cells[width + i];
      if (value !== undefined && value !== '') row[c] = NUMBER_COLUMNS.has(c) ? Number(value) : value;
    });
    return { result: row as unknown as BatchRowResult, record: cells.slice(0, width) };
  });
}
