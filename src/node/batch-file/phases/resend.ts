import { AbortError, ApiError } from '../../../core/errors/error-classes.js';
import { BatchStoppedError } from '../../../tax/batch/batch-stopped-error.js';
import { pacedSender } from '../../../tax/batch/paced-sender.js';
import { type Pending, runSegment } from '../../../tax/batch/runner.js';
import type {
  BatchRowResult,
  BatchSender,
  RunBatchOptions,
  SentRowResult,
} from '../../../tax/batch/types.js';
import { BatchFileFailedError, BatchFileStoppedError, BatchInterruptedError } from '../errors.js';
import { readBackResults } from '../output/earlier-results.js';
import type { RowWriter } from '../output/writers.js';
import { OutcomeJournal, type Scratch } from '../state/journal.js';
import type { CompletionJoiner } from '../wait/joiner.js';
import type { RowRequests, RunStand } from './context.js';

/**
 * Whether a failed row's cause lets a later run send it again: the service did not take it
 * (408, 429, 5xx) or no answer came (a timeout, a broken connection). A 400, 409 or a row that no
 * longer checks is not resent.
 */
export function isRetryableFailure(code: string | undefined): boolean {
  return (
    code !== undefined && (/^HTTP_(408|429|5\d\d)$/.test(code) || code === 'TIMEOUT' || code === 'CONNECTION')
  );
}

/** The rows of kept results (their first `bytes`) that failed for a retryable cause, in row order. */
export async function retryableRows(writer: RowWriter, path: string, bytes: number): Promise<number[]> {
  const { encoder } = writer;
  const rows: number[] = [];
  const results = readBackResults(
    path,
    encoder.format,
    bytes,
    encoder.inputHeader.length,
    encoder.style.delimiter,
  );
  for await (const result of results)
    if (result.status === 'failed' && isRetryableFailure(result.code)) rows.push(result.row);
  return rows;
}

/** What the resending uses of a run. */
export interface ResendRun extends RunStand {
  tax: BatchSender;
  runOptions: RunBatchOptions;
  requests: RowRequests;
}

/**
 * Sends again the rows an earlier run left `failed` for a retryable cause, with their original
 * requests rebuilt from the input (so their original idempotency keys: the service validates
 * none twice), paced and chunked as the send phase does. Resolves to their new results, by row,
 * in a journal in `scratch` (for the merge that rewrites their lines); with `joiner`, the
 * submitted ones are awaited. A stop is thrown as the send phase throws it; the results file is
 * then unchanged and a later resume sends the rows again.
 */
export async function resendRows(
  w: ResendRun,
  rows: readonly number[],
  scratch: Scratch,
  joiner: CompletionJoiner | undefined,
): Promise<OutcomeJournal<BatchRowResult>> {
  const resent = new OutcomeJournal<BatchRowResult>(scratch.path('resent'), rows.at(-1) ?? 0);
  const { runOptions } = w;
  const single = runOptions.strategy === 'single';
  const chunkSize = single ? 1 : Math.min(Math.max(runOptions.chunkSize ?? 100, 1), 1000);
  const concurrency = Math.max(runOptions.concurrency ?? 4, 1);
  const tax = pacedSender(w.tax, runOptions, concurrency);
  const inFlight = new Set<Promise<void>>();
  const take = (results: SentRowResult[]) => {
    for (const result of results) {
      resent.add(result.row, { ...result });
      if (joiner && result.status === 'submitted' && result.validationRequestId)
        joiner.track(result.row, result.validationRequestId, result.knownResultId);
    }
  };
  let failure: { error: unknown; row: number } | undefined;
  const send = (chunk: Pending[]) => {
    const work: Promise<void> = runSegment(tax, chunk, runOptions, single)
      .then(take, (error: unknown) => {
        failure ??= { error, row: chunk[0]?.row ?? 0 };
      })
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };
  let chunk: Pending[] = [];
  for await (const { row, request } of w.requests(rows)) {
    if (failure !== undefined || runOptions.signal?.aborted) break;
    // A row that no longer checks keeps its line: its input changed since it failed.
    if (!request) continue;
    chunk.push({ row, request });
    if (chunk.length < chunkSize) continue;
    send(chunk);
    chunk = [];
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  if (chunk.length > 0 && failure === undefined && !runOptions.signal?.aborted) send(chunk);
  await Promise.all(inFlight);
  if (failure !== undefined || runOptions.signal?.aborted) {
    resent.close();
    throw stopped(w, failure);
  }
  return resent;
}

/** The error that says how the resending stopped (an interrupt, or a key or plan problem), as the send phase's do. */
function stopped(w: RunStand, failure: { error: unknown; row: number } | undefined): Error {
  const { rowsDone } = w.ledger;
  const error = failure?.error;
  if (failure === undefined || error instanceof AbortError)
    return new BatchInterruptedError(rowsDone, w.keptState);
  if (!(error instanceof ApiError)) return new BatchFileFailedError(error, rowsDone, w.keptState);
  const message = `Batch stopped sending failed row ${failure.row} again: ${error.message.replace(/\s+/g, ' ')}`;
  return new BatchFileStoppedError(new BatchStoppedError(message, failure.row, error), rowsDone, w.keptState);
}
