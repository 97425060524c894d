import { readFile } from 'node:fs/promises';
import type { BatchRowResult } from '../batch/types.js';
import { OUTPUT_COLUMNS } from './row-output.js';

/** Rows of an earlier run, read back from the first `upTo` bytes of its NDJSON or CSV results. */
export async function readBackRows(path: string, csv: boolean, upTo: number): Promise<BatchRowResult[]> {
  const text = (await readFile(path)).subarray(0, upTo).toString('utf8');
  if (!csv)
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BatchRowResult);
  const { parse } = await import('csv-parse/sync');
  const records = parse(text, { columns: true }) as Array<Record<string, string>>;
  return records.map((r) => {
    const row: Record<string, unknown> = {};
    for (const c of OUTPUT_COLUMNS)
      if (r[c] !== undefined && r[c] !== '') row[c] = c === 'row' ? Number(r[c]) : r[c];
    return row as unknown as BatchRowResult;
  });
}
