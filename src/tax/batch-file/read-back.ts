import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { BatchRowResult } from '../batch/types.js';
import { OUTPUT_COLUMNS } from './row-output.js';

/**
 * The row results of a joined NDJSON or CSV results file (see `RowOutput`), read back streamed
 * from its first `upTo` bytes, without the input's cells (`inputWidth` columns of a CSV line).
 */
export async function* readBackResults(
  path: string,
  csv: boolean,
  upTo: number,
  inputWidth: number,
): AsyncGenerator<BatchRowResult> {
  if (upTo <= 0) return;
  const source = createReadStream(path, { start: 0, end: upTo - 1 });
  try {
    if (!csv) {
      for await (const line of createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY })) {
        if (!line) continue;
        const { input: _input, ...result } = JSON.parse(line) as BatchRowResult & { input?: unknown };
        yield result;
      }
      return;
    }
    const { parse } = await import('csv-parse');
    const parser = source.pipe(parse({ from_line: 2, relax_column_count: true }));
    for await (const cells of parser as AsyncIterable<string[]>) {
      const row: Record<string, unknown> = {};
      OUTPUT_COLUMNS.forEach((c, i) => {
        const value = cells[inputWidth + i];
        if (value !== undefined && value !== '') row[c] = c === 'row' ? Number(value) : value;
      });
      yield row as unknown as BatchRowResult;
    }
  } finally {
    source.destroy();
  }
}
