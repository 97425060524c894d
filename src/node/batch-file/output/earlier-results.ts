import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { BatchRowResult } from '../../../tax/batch/types.js';
import { NUMBER_COLUMNS, OUTPUT_COLUMNS } from '../result-columns.js';
import type { RowFormat } from './format.js';

/**
 * The row results of a joined NDJSON, CSV or workbook rows file (see `RowOutput`), read back
 * streamed from its first `upTo` bytes, without the input's cells (`inputWidth` columns of a CSV
 * line, `input` or `cells` of a JSON line): memory stays bounded whatever the number of rows.
 * `format` is CSV (true), NDJSON (false) or a {@link RowFormat}; `delimiter` is the CSV results'
 * delimiter (default `,`); a leading BOM is skipped.
 */
export async function* readBackResults(
  path: string,
  format: boolean | RowFormat,
  upTo: number,
  inputWidth: number,
  delimiter = ',',
): AsyncGenerator<BatchRowResult> {
  if (upTo <= 0) return;
  const csv = format === true || format === 'csv';
  const source = createReadStream(path, { start: 0, end: upTo - 1 });
  try {
    if (!csv) {
      for await (const line of createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY })) {
        if (!line) continue;
        const {
          input: _input,
          cells: _cells,
          ...result
        } = JSON.parse(line) as BatchRowResult & { input?: unknown; cells?: unknown };
        yield result;
      }
      return;
    }
    const { parse } = await import('csv-parse');
    const parser = source.pipe(parse({ from_line: 2, relax_column_count: true, delimiter, bom: true }));
    for await (const cells of parser as AsyncIterable<string[]>) {
      const row: Record<string, unknown> = {};
      OUTPUT_COLUMNS.forEach((c, i) => {
        const value = cells[inputWidth + i];
        if (value !== undefined && value !== '') row[c] = NUMBER_COLUMNS.has(c) ? Number(value) : value;
      });
      yield row as unknown as BatchRowResult;
    }
  } finally {
    source.destroy();
  }
}
