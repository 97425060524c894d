import type { BatchRowResult, RunBatchOptions } from '../../tax/batch/types.js';
import { Checkpointer, DurableOutput } from '../fs/checkpoint.js';
import { DEFAULT_FILE_MODE } from '../fs/output-file.js';
import { type InputFile, prepareInput } from './input/prepare.js';
import type {
  BatchFileOptions,
  BatchFileOutputOptions,
  BatchFileResult,
  BatchFileResumeOptions,
  BatchFileSendOptions,
} from './options.js';
import { type CsvStyle, RowOutput, rejectsHeader } from './output/format.js';
import { openRowWriter, type RowWriter } from './output/writers.js';
import { checkRun, type RunPlan } from './phases/check.js';
import type { BatchFileClient, RowRequests, RunStand } from './phases/context.js';
import { InputRows, type ReadInput, readInput, rowRequests } from './phases/read.js';
import { resendRows, retryableRows } from './phases/resend.js';
import { sendRows } from './phases/send.js';
import { awaitOutcomes, rewriteResults } from './phases/wait.js';
import { OutcomeJournal, Scratch } from './state/journal.js';
import { RunLedger } from './state/ledger.js';
import { type BatchFileState, loadBatchState } from './state/state-file.js';
import { listenForOutcomes, outcomeJoiner, trackKeptRows } from './wait/listen.js';

export type { BatchFileClient } from './phases/context.js';

/**
 * The batch-file job (`runBatchFile`, job.ts, loads it at its first call): check, read, send,
 * resend, wait and write, as the phases below.
 *
 * The run goes in phases (phases/): check (options and paths), read (the input and its columns),
 * send, resend, wait (its listener, joiner and reconciliation in wait/), and write, through one
 * {@link RowWriter} whatever the output (output/writers.ts).
 */
export async function runBatchFileWith(
  tax: BatchFileClient,
  options: BatchFileOptions,
): Promise<BatchFileResult> {
  const plan = await checkRun(options);
  const input = await prepareInput(plan.source, options.signal);
  try {
    return await runPrepared(tax, options, plan, input);
  } finally {
    await input.removeCopy();
  }
}

/** The run once the input is a file on disk and the options are resolved: its outputs opened. */
async function runPrepared(
  tax: BatchFileClient,
  options: BatchFileOptions,
  plan: RunPlan,
  file: InputFile,
): Promise<BatchFileResult> {
  const { output = {}, resume = {}, send = {}, signal, onProgress } = options;
  const runId = send.runId ?? file.sha256;
  const resumed = resume.continue && plan.statePath ? await loadBatchState(plan.statePath, runId) : undefined;
  const read = await readInput(file.path, plan.inputName, options.input, onProgress);
  const { writer, rejects } = await openOutputs(output, resume, plan, read, resumed);
  const ledger = new RunLedger(runId, { path: plan.inputName, size: file.size }, resumed);
  const keptState = writer.resumable && plan.statePath ? plan.statePath : undefined;
  const checkpoints = new Checkpointer({
    statePath: keptState,
    outputs: [writer.file, rejects],
    state: () => ledger.snapshot(),
    policy: { everySteps: Number.POSITIVE_INFINITY, everyMs: 1000, ...resume.sync },
  });
  const runOptions = batchOptions(send, signal, read, runId, ledger.skipRows);
  const requests: RowRequests = (rows) =>
    rowRequests(read.opened.reopen, read.columns, rows, runOptions, runId);
  const open = {
    tax,
    options: { send, signal, onProgress },
    read,
    runOptions,
    requests,
    writer,
    rejects,
    checkpoints,
    stand: { ledger, keptState },
  };
  return runPhases(open, plan, resumed);
}

/** A run with its input read and its outputs open: each phase is handed the few parts it uses. */
interface OpenRun {
  tax: BatchFileClient;
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

/** Send (and with `wait`, wait), then write the results; whatever happens, the outputs are closed. */
async function runPhases(
  open: OpenRun,
  plan: RunPlan,
  resumed: BatchFileState | undefined,
): Promise<BatchFileResult> {
  const { tax, read, runOptions, requests, writer, rejects, checkpoints, options, stand } = open;
  const { ledger, keptState } = stand;
  const reopen = read.opened.reopen;
  // With `wait`, the outcomes that arrive go to a journal in a private scratch folder, and the
  // sending pass's lines to a draft (the results file itself when it can be rewritten in place).
  const { wait } = plan;
  // Rows an earlier run left failed for a retryable cause: sent again once the rest is sent.
  const resend = resumed && plan.outPath ? await retryableRows(writer, plan.outPath, resumed.outBytes) : [];
  const scratch = wait || resend.length > 0 ? new Scratch() : undefined;
  const journal = wait && scratch && new OutcomeJournal(scratch.path('outcomes'), read.opened.rowsTotal ?? 0);
  const joiner = journal && outcomeJoiner(tax, journal, writer, ledger);
  let unregister: (() => Promise<void>) | undefined;
  let resent: OutcomeJournal<BatchRowResult> | undefined;
  try {
    if (wait && scratch) await writer.useDraft(scratch);
    if (!resumed) {
      await writer.begin();
      await rejects?.append(rejectsHeader(read.columns.header, writer.encoder.style));
    }
    if (joiner && wait) {
      unregister = await listenForOutcomes(joiner, wait, options);
      if (resumed && plan.outPath)
        await trackKeptRows(joiner, writer, { path: plan.outPath, bytes: resumed.outBytes });
    }
    const sending = {
      ...stand,
      tax,
      runOptions,
      writer,
      rejects,
      checkpoints,
      onProgress: options.onProgress,
    };
    const rows = new InputRows(read.opened.table, read.columns, ledger.skipRows);
    await sendRows({ ...sending, rowsTotal: read.opened.rowsTotal }, rows, joiner);
    if (scratch && resend.length > 0) {
      options.onProgress?.({ type: 'resending', rows: resend.length });
      resent = await resendRows({ ...stand, tax, runOptions, requests }, resend, scratch, joiner);
    }
    const rewriting = { ...stand, writer, reopen };
    const waiting = { ...rewriting, tax, requests, ...options };
    const outstanding =
      joiner && journal && wait ? await awaitOutcomes(waiting, { wait, joiner, journal, resent }) : 0;
    if (!wait && resent) await rewriteResults(rewriting, undefined, true, resent);
    const workbookCellsReplaced = await writer.finish();
    const retryable =
      ledger.counts.failed && keptState && plan.outPath
        ? (await retryableRows(writer, plan.outPath, Number.POSITIVE_INFINITY)).length
        : 0;
    return {
      rowsDone: ledger.rowsDone,
      counts: ledger.counts,
      outstanding,
      retryable,
      resumed: resumed !== undefined,
      statePath: keptState,
      workbookCellsReplaced,
    };
  } finally {
    await unregister?.();
    await joiner?.close();
    journal?.close();
    resent?.close();
    await writer.close();
    scratch?.remove();
    await rejects?.close().catch(() => {});
  }
}

/** Opens the results (continued where the state says when resuming) and the rejects file. */
async function openOutputs(
  output: BatchFileOutputOptions,
  resume: Pick<BatchFileResumeOptions, 'force'>,
  plan: RunPlan,
  read: ReadInput,
  resumed: BatchFileState | undefined,
): Promise<{ writer: RowWriter; rejects: DurableOutput | undefined }> {
  const opening = { force: resume.force, mode: output.fileMode ?? DEFAULT_FILE_MODE };
  const style = csvStyle(output, read);
  const encoder = new RowOutput(read.columns.header, plan.format, style);
  const writer = await openRowWriter(plan, encoder, resumed?.outBytes, opening);
  if (!output.rejects) return { writer, rejects: undefined };
  try {
    const rejects = await DurableOutput.open(output.rejects, resumed?.rejectsBytes, opening);
    return { writer, rejects };
  } catch (error) {
    await writer.close();
    throw error;
  }
}

/**
 * CSV results and rejects as `output` asks, else as the CSV came in: its delimiter, and a BOM
 * when it had one or was not UTF-8 (and for a workbook input, `,` with a BOM).
 */
function csvStyle(output: Pick<BatchFileOutputOptions, 'delimiter' | 'bom'>, read: ReadInput): CsvStyle {
  const { dialect } = read.opened.table;
  return {
    delimiter: output.delimiter ?? dialect?.delimiter ?? ',',
    bom: output.bom ?? dialect?.bom ?? dialect === undefined,
  };
}

/** The runner's options for this run: the `send` group with what the run adds. */
function batchOptions(
  send: BatchFileSendOptions,
  signal: AbortSignal | undefined,
  read: ReadInput,
  runId: string,
  skipRows: number,
): RunBatchOptions {
  return {
    strategy: send.strategy,
    chunkSize: send.chunkSize,
    concurrency: send.concurrency,
    precheck: send.precheck,
    fieldName: read.columns.fieldName,
    timeoutMs: send.timeoutMs,
    maxRetries: send.maxRetries,
    deadlineMs: send.deadlineMs,
    ...(send.retryForMs !== undefined && { retryForMs: send.retryForMs }),
    runId,
    skipRows,
    signal,
  };
}
