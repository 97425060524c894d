import type { BatchRowResult, BatchSender } from '../../../tax/batch/types.js';
import { writeStateFile } from '../../fs/checkpoint.js';
import { BatchInterruptedError } from '../errors.js';
import type { BatchFileOptions, BatchFileSendOptions, BatchFileWaitOptions } from '../options.js';
import type { RowWriter } from '../output/writers.js';
import type { OutcomeJournal } from '../state/journal.js';
import type { InputTable } from '../table.js';
import type { CompletionJoiner } from '../wait/joiner.js';
import { mergeOutcomes } from '../wait/merge-outcomes.js';
import { reconcile } from '../wait/reconcile.js';
import { DEFAULT_QUIET_MS, waitForOutcomes } from '../wait/until-done.js';
import type { RowRequests, RunStand } from './context.js';

/**
 * How long a batch file run waits for its rows' outcomes after the last row was sent, by default:
 * `BatchFileWaitOptions.timeoutMs` (the CLI's `svc batch --wait-timeout`, default 300 s). Not one
 * validation's wait (`DEFAULT_RESULT_WAIT_MS`, 60 s), a separate setting.
 */
const DEFAULT_BATCH_WAIT_MS = 300_000;

/** What rewriting the results uses of a run. */
export interface RewriteRun extends RunStand {
  writer: RowWriter;
  /** The input opened again from its first row. */
  reopen: () => Promise<InputTable>;
}

/** What the wait phase uses of a run. */
export interface WaitRun extends RewriteRun {
  tax: Pick<BatchSender, 'validate'>;
  requests: RowRequests;
  /** Of the `send` group: each reconciliation request's timeout and retries. */
  send: Pick<BatchFileSendOptions, 'timeoutMs' | 'maxRetries'>;
  signal?: AbortSignal;
  onProgress?: BatchFileOptions['onProgress'];
}

/** What a run that waits keeps for the wait phase. */
export interface Waiting {
  /** The `wait` group. */
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
export async function awaitOutcomes(w: WaitRun, { wait, joiner, journal, resent }: Waiting): Promise<number> {
  const { ledger, signal, onProgress } = w;
  const timeoutMs = wait.timeoutMs ?? DEFAULT_BATCH_WAIT_MS;
  onProgress?.({ type: 'waiting', outstanding: joiner.outstanding, timeoutMs });
  const end = await waitForOutcomes(joiner, {
    timeoutMs,
    quietMs: wait.quietMs ?? DEFAULT_QUIET_MS,
    signal,
    onProgress: (event) => onProgress?.(event),
    reconcile: (deadline, pause) =>
      reconcile(w.tax, joiner, {
        pause,
        requests: w.requests,
        concurrency: wait.reconcileConcurrency,
        backoffMs: wait.pendingBackoffMs,
        deadline,
        signal,
        request: { timeoutMs: w.send.timeoutMs, maxRetries: w.send.maxRetries },
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
  w: RewriteRun,
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
      records: (await w.reopen()).rows,
      journal,
      resent,
      final,
      counts: ledger.counts,
    });
  });
  if (bytes !== undefined && w.keptState)
    await writeStateFile(w.keptState, { ...ledger.snapshot(), outBytes: bytes });
}
