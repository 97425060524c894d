import { AbortError, SvcError } from '../../../core/errors/error-classes.js';
import { BatchStoppedError } from '../../../tax/batch/batch-stopped-error.js';
import { runBatchSegments } from '../../../tax/batch/runner.js';
import type { BatchSender, RunBatchOptions, SentRowResult } from '../../../tax/batch/types.js';
import type { Checkpointer } from '../../fs/checkpoint.js';
import type { DurableOutput } from '../../fs/output-file.js';
import {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from '../errors.js';
import type { BatchFileOptions, BatchFileSendOptions } from '../options.js';
import { rejectLine } from '../output/format.js';
import type { RowWriter } from '../output/writers.js';
import type { BatchFileState } from '../state/state-file.js';
import type { CompletionJoiner } from '../wait/joiner.js';
import type { RunStand } from './context.js';
import type { InputRows } from './read.js';

/** What the send phase uses of a run. */
export interface SendRun extends RunStand {
  tax: BatchSender;
  runOptions: RunBatchOptions;
  writer: RowWriter;
  /** The rejects file (CSV in the results' style), if asked for. */
  rejects: DurableOutput | undefined;
  checkpoints: Checkpointer<BatchFileState>;
  onProgress: BatchFileOptions['onProgress'];
  /** The input's data rows, when known before reading them. */
  rowsTotal: number | undefined;
}

/** The send phase's part of a run: what it uses, the input rows, and with `wait` the joiner. */
interface SendPhase extends SendRun {
  rows: InputRows;
  /** With `wait`: takes each submitted row, to join its outcome when it comes. */
  joiner: CompletionJoiner | undefined;
}

/**
 * The send phase: every row not done yet is checked and sent (the runner, in order, a segment at a
 * time), its line written, counted and reported; a checkpoint when the policy says so. A stop
 * (abort, a plan limit, an output fault) is checkpointed and thrown as the error that says how to
 * go on.
 */
export async function sendRows(
  run: SendRun,
  rows: InputRows,
  joiner: CompletionJoiner | undefined,
): Promise<void> {
  const p: SendPhase = { ...run, rows, joiner };
  const { checkpoints } = p;
  // A state file from the first moment, so a run killed before its first checkpoint resumes too.
  measureOutputs(p);
  await checkpoints.commit();
  const started = Date.now();
  try {
    for await (const results of runBatchSegments(p.tax, rows.requests(), p.runOptions)) {
      // A segment is written whole, then counted: a state file never covers half of one.
      await writeSegment(p, results);
      reportSegment(p, results, started);
      measureOutputs(p);
      await checkpoints.step(results.length);
    }
  } catch (error) {
    throw await stopped(p, error);
  }
  await checkpoints.commit();
}

/** The output sizes now: what the next state file may promise. */
function measureOutputs(p: SendPhase): void {
  p.ledger.outBytes = p.writer.file?.size ?? 0;
  p.ledger.rejectsBytes = p.rejects?.size ?? 0;
}

/** Writes a segment's results (and its rejects) joined to their input records. */
async function writeSegment(p: SendPhase, results: SentRowResult[]): Promise<void> {
  const { encoder } = p.writer;
  const width = encoder.inputHeader.length;
  let text = '';
  let rejects = '';
  for (const result of results) {
    const tableRow = p.rows.nextRecord();
    const record = tableRow?.cells;
    if (tableRow) result.line = tableRow.line;
    if (result.status === 'rejected' && p.rejects)
      rejects += rejectLine(result, record, width, encoder.style);
    text += encoder.line(result, record);
  }
  if (rejects) await p.rejects?.append(rejects);
  await p.writer.write(text);
}

/** Counts a segment's rows, hands the submitted ones to the joiner and reports each. */
function reportSegment(p: SendPhase, results: SentRowResult[], started: number): void {
  const { ledger, joiner } = p;
  const last = results.at(-1)?.row ?? ledger.rowsDone;
  const rowsPerSecond = Math.round(((last - ledger.skipRows) * 1000) / Math.max(Date.now() - started, 1));
  for (const result of results) {
    ledger.count(result);
    if (joiner && result.status === 'submitted' && result.validationRequestId)
      joiner.track(result.row, result.validationRequestId, result.knownResultId);
    ledger.rowsDone = result.row;
    p.onProgress?.({
      type: 'row',
      result,
      rowsDone: ledger.rowsDone,
      rowsTotal: p.rowsTotal,
      counts: ledger.counts,
      rowsPerSecond,
    });
  }
}

/** Checkpoints what was reported and returns the error that tells how the run stopped. */
async function stopped(p: SendPhase, error: unknown): Promise<unknown> {
  const { ledger, checkpoints, keptState } = p;
  const signal = p.runOptions.signal;
  if (error instanceof AbortError && signal?.aborted) {
    await checkpoints.commit();
    return new BatchInterruptedError(ledger.rowsDone, keptState);
  }
  if (error instanceof BatchStoppedError) {
    ledger.stoppedBy = error.message;
    await checkpoints.commit();
    return new BatchFileStoppedError(error, ledger.rowsDone, keptState);
  }
  // Keep what was reported, and say how to continue.
  await checkpoints.commit().catch(() => {});
  if (error instanceof BatchInputError) return error;
  // An output that cannot be written, with no state file to resume from: its own message.
  if (!keptState && error instanceof SvcError && error.code === 'io') return error;
  return new BatchFileFailedError(error, ledger.rowsDone, keptState);
}

/** The runner's options for a run: the `send` group with what the run adds (the input's field name, the run id, the rows done before). */
export function runnerOptions(
  send: BatchFileSendOptions,
  run: {
    signal: AbortSignal | undefined;
    fieldName: RunBatchOptions['fieldName'];
    runId: string;
    skipRows: number;
  },
): RunBatchOptions {
  return {
    strategy: send.strategy,
    chunkSize: send.chunkSize,
    concurrency: send.concurrency,
    precheck: send.precheck,
    fieldName: run.fieldName,
    timeoutMs: send.timeoutMs,
    maxRetries: send.maxRetries,
    deadlineMs: send.deadlineMs,
    ...(send.retryForMs !== undefined && { retryForMs: send.retryForMs }),
    runId: run.runId,
    skipRows: run.skipRows,
    signal: run.signal,
  };
}
