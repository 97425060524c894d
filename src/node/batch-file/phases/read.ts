import { type CheckedSlot, checkRow, keyRows } from '../../../tax/batch/runner.js';
import type { RunBatchOptions } from '../../../tax/batch/types.js';
import { type ColumnMap, mapColumns, recordToRequest } from '../input/columns.js';
import { type OpenedInput, openInputTable } from '../input/open.js';
import type { BatchFileInputOptions, BatchFileOptions } from '../options.js';
import type { InputTable, TableRow } from '../table.js';
import type { RowRequest } from '../wait/reconcile.js';

/** Most requests {@link InputRows.requests} makes at a time: about a chunk of them. */
const REQUEST_SLICE = 128;

/** The input of a file run, open, with its columns mapped. */
export interface ReadInput {
  opened: OpenedInput;
  columns: ColumnMap;
}

/**
 * The read phase's start: opens the input table (CSV or workbook), maps its header to request
 * fields and reports what it found (`encoding`, `columns` progress events).
 */
export async function readInput(
  path: string,
  inputName: string,
  input: Pick<BatchFileInputOptions, 'encoding' | 'sheet' | 'columns'>,
  onProgress: BatchFileOptions['onProgress'],
): Promise<ReadInput> {
  const opened = await openInputTable(path, inputName, { encoding: input.encoding, sheet: input.sheet });
  const { table } = opened;
  if (opened.fallback) onProgress?.({ type: 'encoding', ...opened.fallback });
  let columns: ColumnMap;
  try {
    columns = mapColumns(table.header, input.columns);
  } catch (error) {
    await table.rows[Symbol.asyncIterator]().return?.();
    throw error;
  }
  if (columns.ignored.length || columns.renamed.length || columns.countryFromPrefix)
    onProgress?.({
      type: 'columns',
      ignored: columns.ignored,
      renamed: columns.renamed,
      countryFromPrefix: columns.countryFromPrefix,
    });
  return { opened, columns };
}

/**
 * The rows of the input as requests, a buffer at a time, for the runner; and the input records of
 * the rows sent, in order, for the writer. Results come back in input order, one per row after
 * the skipped ones, so the oldest record kept is always the next result's.
 */
export class InputRows {
  private readonly records: TableRow[][] = [];
  private recordAt = 0;

  constructor(
    private readonly table: InputTable,
    private readonly columns: ColumnMap,
    /** Rows an earlier run reported: read, but neither sent nor kept. */
    private readonly skipRows: number,
  ) {}

  /**
   * The requests, one per row (`null` for a skipped row), a buffer of the input at a time, in
   * slices of at most {@link REQUEST_SLICE} rows: a request is made shortly before the runner
   * checks it, not while it waits for the answers to a buffer's first rows (a buffer is thousands
   * of rows, and requests made early survive garbage collections, each of which copies them).
   */
  async *requests(): AsyncGenerator<unknown[]> {
    let row = 0;
    for await (const batch of this.table.batches) {
      for (let start = 0; start < batch.length; start += REQUEST_SLICE) {
        const end = Math.min(start + REQUEST_SLICE, batch.length);
        const out: unknown[] = new Array(end - start);
        const kept: TableRow[] = [];
        for (let i = start; i < end; i++) {
          row += 1;
          if (row <= this.skipRows) {
            out[i - start] = null;
            continue;
          }
          const record = batch[i] as TableRow;
          kept.push(record);
          out[i - start] = recordToRequest(record.cells, this.columns);
        }
        if (kept.length > 0) this.records.push(kept);
        yield out;
      }
    }
  }

  /** The record of the next result. */
  nextRecord(): TableRow | undefined {
    const batch = this.records[0];
    if (!batch) return undefined;
    const record = batch[this.recordAt++];
    if (this.recordAt >= batch.length) {
      this.records.shift();
      this.recordAt = 0;
    }
    return record;
  }
}

/**
 * The original requests of `rows` (ascending), rebuilt from the input exactly as they were sent
 * (keyed a buffer of the input at a time).
 */
export async function* rowRequests(
  reopen: () => Promise<InputTable>,
  columns: ColumnMap,
  rows: readonly number[],
  runOptions: RunBatchOptions,
  runId: string,
): AsyncGenerator<RowRequest> {
  if (rows.length === 0) return;
  const { batches } = await reopen();
  let row = 0;
  let next = 0;
  for await (const batch of batches) {
    const checked: CheckedSlot[] = [];
    for (const record of batch) {
      row += 1;
      if (row !== rows[next]) continue;
      next += 1;
      checked.push(checkRow(row, recordToRequest(record.cells, columns), runOptions, runId));
      if (next >= rows.length) break;
    }
    for (const slot of await keyRows(checked))
      yield { row: slot.row, request: 'request' in slot ? slot.request : undefined };
    if (next >= rows.length) break;
  }
}
