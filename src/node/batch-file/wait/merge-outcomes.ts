import type { BatchRowResult } from '../../../tax/batch/types.js';
import { readBackResults } from '../output/earlier-results.js';
import type { RowOutput } from '../output/format.js';
import type { OutcomeJournal } from '../state/journal.js';
import { countKey } from '../state/ledger.js';
import type { TableRow } from '../table.js';

/** Lines gathered into one chunk of about this many characters before it is written. */
const CHUNK_CHARS = 64 * 1024;

/** Options of {@link mergeOutcomes}. */
export interface MergeOptions {
  /** The results as the submitting pass wrote them (in `output`'s format and style), and how many of its bytes count. */
  draft: { path: string; bytes: number };
  output: RowOutput;
  /**
   * The input's data rows again, in row order (see `openInputTable`): their cells are written as
   * read, never re-read from the draft, and their `line` is kept.
   */
  records: AsyncIterable<TableRow>;
  /** The outcomes that arrived, with `wait`; without, submitted rows stay as they are. */
  journal: OutcomeJournal | undefined;
  /** A resumed run's new results of rows an earlier run left failed: they replace those lines. */
  resent?: OutcomeJournal<BatchRowResult> | undefined;
  /** Whether the waiting is over: a row still without an outcome becomes `pending` (else stays `submitted`). */
  final: boolean;
  /** Filled with the rows per status of the merged results. */
  counts: Record<string, number>;
}

/**
 * The final results, streamed in chunks: every line of the draft with the outcome the journal
 * holds for its row (and a resent row's new result in place of its failure), in row order,
 * memory bounded whatever the number of rows.
 */
export async function* mergeOutcomes(options: MergeOptions): AsyncGenerator<string> {
  const { output, journal, counts } = options;
  const records = options.records[Symbol.asyncIterator]();
  let recordRow = 0;
  let chunk = output.header();
  try {
    for await (const result of readBackResults(
      options.draft.path,
      output.format,
      options.draft.bytes,
      output.inputHeader.length,
      output.style.delimiter,
    )) {
      let record: string[] | undefined;
      while (recordRow < result.row) {
        const next = await records.next();
        if (next.done) break;
        recordRow += 1;
        if (recordRow === result.row) {
          record = next.value.cells;
          result.line ??= next.value.line;
        }
      }
      const again = result.status === 'failed' ? options.resent?.get(result.row) : undefined;
      // A resent row's new result in place of its failure, on the line the draft gave the row.
      const row = again ? { ...again, ...(result.line !== undefined && { line: result.line }) } : result;
      if (journal && (row.status === 'submitted' || row.status === 'pending')) {
        const outcome = journal.get(row.row);
        if (outcome) Object.assign(row, outcome);
        else row.status = options.final ? 'pending' : 'submitted';
      }
      const key = countKey(row);
      counts[key] = (counts[key] ?? 0) + 1;
      chunk += output.line(row, record);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  } finally {
    await records.return?.();
  }
}
