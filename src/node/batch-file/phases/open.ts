import type { RunBatchOptions } from '../../../tax/batch/types.js';
import { Checkpointer } from '../../fs/checkpoint.js';
import { DEFAULT_FILE_MODE, DurableOutput } from '../../fs/output-file.js';
import type { InputFile } from '../input/prepare.js';
import type { BatchFileOptions, BatchFileSendOptions } from '../options.js';
import { RowOutput, resultsStyle } from '../output/format.js';
import { type RowWriter, rowWriter } from '../output/writers.js';
import { RunLedger } from '../state/ledger.js';
import { type BatchFileState, loadBatchState } from '../state/state-file.js';
import type { RunPlan } from './check.js';
import type { BatchFileClient, RowRequests, RunStand } from './context.js';
import { type ReadInput, readInput, rowRequests } from './read.js';
import { runnerOptions } from './send.js';

/** A run with its input read and its outputs open: each phase is handed the few parts it uses. */
export interface OpenRun {
  tax: BatchFileClient;
  plan: RunPlan;
  /** The state of the run this one continues, if it resumes. */
  resumed: BatchFileState | undefined;
  /** The `send` group (its request options, for the reconciliation), the signal, the progress callback. */
  options: Pick<BatchFileOptions, 'signal' | 'onProgress'> & { send: BatchFileSendOptions };
  /** The input, open, with its columns mapped. */
  read: ReadInput;
  /** The runner's options. */
  runOptions: RunBatchOptions;
  requests: RowRequests;
  writer: RowWriter;
  /** The rejects file (CSV in the results' style), if asked for. */
  rejects: DurableOutput | undefined;
  checkpoints: Checkpointer<BatchFileState>;
  stand: RunStand;
}

/**
 * Opens a run once its input is a file on disk and its options are checked: the state it
 * continues (with `resume.continue`), the input read and its columns mapped, the results (continued
 * where the state says) and rejects opened, the ledger and the checkpoints that keep its state.
 */
export async function openRun(
  tax: BatchFileClient,
  options: BatchFileOptions,
  plan: RunPlan,
  file: InputFile,
): Promise<OpenRun> {
  const { output = {}, resume = {}, send = {}, signal, onProgress } = options;
  const runId = send.runId ?? file.sha256;
  const resumed = resume.continue && plan.statePath ? await loadBatchState(plan.statePath, runId) : undefined;
  const read = await readInput(file.path, plan.inputName, options.input, onProgress);
  const style = resultsStyle(output, read.opened.table.dialect);
  const encoder = new RowOutput(read.columns.header, plan.format, style);
  const opening = { force: resume.force, mode: output.fileMode ?? DEFAULT_FILE_MODE };
  const results = plan.outPath
    ? await DurableOutput.open(plan.outPath, resumed?.outBytes, opening)
    : undefined;
  let rejects: DurableOutput | undefined;
  try {
    rejects = output.rejects
      ? await DurableOutput.open(output.rejects, resumed?.rejectsBytes, opening)
      : undefined;
  } catch (error) {
    await results?.close().catch(() => {});
    throw error;
  }
  const writer = rowWriter(plan, encoder, results, opening.mode);
  const ledger = new RunLedger(runId, { path: plan.inputName, size: file.size }, resumed);
  const keptState = writer.resumable && plan.statePath ? plan.statePath : undefined;
  const checkpoints = new Checkpointer({
    statePath: keptState,
    outputs: [writer.file, rejects],
    state: () => ledger.snapshot(),
    policy: { everySteps: Number.POSITIVE_INFINITY, everyMs: 1000, ...resume.sync },
  });
  const runOptions = runnerOptions(send, {
    signal,
    fieldName: read.columns.fieldName,
    runId,
    skipRows: ledger.skipRows,
  });
  const requests: RowRequests = (rows) =>
    rowRequests(read.opened.reopen, read.columns, rows, runOptions, runId);
  return {
    tax,
    plan,
    resumed,
    options: { send, signal, onProgress },
    read,
    runOptions,
    requests,
    writer,
    rejects,
    checkpoints,
    stand: { ledger, keptState },
  };
}
