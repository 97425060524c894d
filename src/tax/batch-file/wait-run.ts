import { writeStateFile } from '../../node/checkpoint.js';
import type { BatchRowResult } from '../batch/types.js';
import { BatchInterruptedError } from '../batch-file-errors.js';
import { registerWebhookEndpoint, unregisterWebhookEndpoint } from '../webhooks/register-endpoint.js';
import { CompletionJoiner, type ResultFetcher } from './completion-joiner.js';
import { mergeOutcomes } from './merge-outcomes.js';
import type { BatchFileOptions, BatchFileWaitOptions } from './options.js';
import type { OutcomeJournal } from './outcome-journal.js';
import { readBackResults } from './read-back.js';
import { rowRequests } from './read-phase.js';
import { reconcile } from './reconcile.js';
import type { RowWriter } from './row-writer.js';
import type { RunContext } from './run-context.js';
import type { RunLedger } from './run-ledger.js';
import { DEFAULT_QUIET_MS, waitForOutcomes } from './wait-phase.js';

/** Default wait for outcomes: 5 minutes. */
const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

/**
 * The joiner of a run that waits: each outcome that arrives goes to the journal. Without kept
 * lines (no output) the counts are kept here; with them they are recounted by the merge.
 */
export function outcomeJoiner(
  tax: ResultFetcher,
  journal: OutcomeJournal,
  writer: RowWriter,
  ledger: RunLedger,
): CompletionJoiner {
  const { counts } = ledger;
  return new CompletionJoiner(tax, {
    onOutcome: (row, outcome) => {
      if (journal.add(row, outcome) && !writer.keepsLines) {
        counts.submitted = (counts.submitted ?? 1) - 1;
        const key = outcome.status === 'completed' ? `completed:${outcome.outcome}` : outcome.status;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    },
  });
}

/**
 * Starts the webhook listener and registers it as `wait.register` says; resolves to what removes
 * an endpoint registered through a reference server's admin API (for the end of the run).
 */
export async function listenForOutcomes(
  joiner: CompletionJoiner,
  wait: BatchFileWaitOptions,
  options: Pick<BatchFileOptions, 'signal' | 'onProgress'>,
): Promise<(() => Promise<void>) | undefined> {
  const url = await joiner.listen(wait.host ?? '127.0.0.1', wait.port ?? 0);
  const { register } = wait;
  let unregister: (() => Promise<void>) | undefined;
  if (typeof register === 'function') await register(url);
  else if (register !== undefined) {
    await registerWebhookEndpoint(register, url, { signal: options.signal });
    unregister = () => unregisterWebhookEndpoint(register, url).catch(() => {});
  }
  options.onProgress?.({ type: 'listening', url, registered: register !== undefined });
  return unregister;
}

/** Rows an earlier run left without an outcome (their completions went to its listener): awaited again. */
export async function trackKeptRows(
  joiner: CompletionJoiner,
  writer: RowWriter,
  kept: { path: string; bytes: number },
): Promise<void> {
  const { encoder } = writer;
  const results = readBackResults(
    kept.path,
    encoder.format,
    kept.bytes,
    encoder.inputHeader.length,
    encoder.style.delimiter,
  );
  for await (const result of results)
    if ((result.status === 'submitted' || result.status === 'pending') && result.validationRequestId)
      joiner.track(result.row, result.validationRequestId, undefined, true);
}

/** What a run that waits keeps for the wait phase. */
export interface Waiting {
  wait: BatchFileWaitOptions;
  joiner: CompletionJoiner;
  journal: OutcomeJournal;
  /** A resumed run's new results of rows it sent again (see `resendRows`). */
  resent: OutcomeJournal<BatchRowResult> | undefined;
}

/**
 * The wait phase, once every row is sent: waits for the outcomes (asking the service about rows
 * that stay quiet), then rewrites the results with them. Resolves to the rows still without an
 * outcome; an abort is a {@link BatchInterruptedError} once what arrived is written.
 */
export async function awaitOutcomes(
  w: RunContext,
  { wait, joiner, journal, resent }: Waiting,
): Promise<number> {
  const { ledger, read, options } = w;
  const { signal, onProgress } = options;
  const timeoutMs = wait.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  onProgress?.({ type: 'waiting', outstanding: joiner.outstanding, timeoutMs });
  const end = await waitForOutcomes(joiner, {
    timeoutMs,
    quietMs: wait.quietMs ?? DEFAULT_QUIET_MS,
    signal,
    onProgress: (event) => onProgress?.(event),
    reconcile: (deadline, pause) =>
      reconcile(w.tax, joiner, {
        pause,
        requests: (rows) => rowRequests(read.opened.reopen, read.columns, rows, w.runOptions, w.runId),
        concurrency: wait.reconcileConcurrency,
        backoffMs: wait.pendingBackoffMs,
        deadline,
        signal,
        request: { timeoutMs: options.timeoutMs, maxRetries: options.maxRetries },
      }),
  });
  const outstanding = joiner.outstanding;
  await joiner.close();
  const final = end !== 'aborted';
  if (w.writer.keepsLines) await rewriteResults(w, journal, final, resent);
  else if (final && outstanding > 0) {
    ledger.counts.submitted = (ledger.counts.submitted ?? outstanding) - outstanding;
    ledger.counts.pending = outstanding;
  }
  if (!final) throw new BatchInterruptedError(ledger.rowsDone, w.keptState);
  return outstanding;
}

/**
 * The results again, every row with the outcome the journal holds for it (and a resent row's new
 * result), counted anew; the state file follows the new size.
 */
export async function rewriteResults(
  w: RunContext,
  journal: OutcomeJournal | undefined,
  final: boolean,
  resent: OutcomeJournal<BatchRowResult> | undefined,
): Promise<void> {
  const { ledger } = w;
  const bytes = await w.writer.rewrite(async (draft) => {
    ledger.clearCounts();
    return mergeOutcomes({
      draft,
      output: w.writer.encoder,
      records: (await w.read.opened.reopen()).rows,
      journal,
      resent,
      final,
      counts: ledger.counts,
    });
  });
  if (bytes !== undefined && w.keptState)
    await writeStateFile(w.keptState, { ...ledger.snapshot(), outBytes: bytes });
}
