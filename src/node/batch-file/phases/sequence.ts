import type { BatchRowResult } from '../../../tax/batch/types.js';
import type { BatchFileResult } from '../options.js';
import { rejectsHeader } from '../output/format.js';
import { OutcomeJournal, Scratch } from '../state/journal.js';
import { listenForOutcomes, outcomeJoiner, trackKeptRows } from '../wait/listen.js';
import type { OpenRun } from './open.js';
import { InputRows } from './read.js';
import { resendRows, retryableRows } from './resend.js';
import { sendRows } from './send.js';
import { awaitOutcomes, rewriteResults } from './wait.js';

/**
 * The phases of an open run in their order: send, resend (rows an earlier run left failed for a
 * retryable cause), wait (with `wait`), then write the results; whatever happens, the outputs are
 * closed.
 */
export async function runPhases(open: OpenRun): Promise<BatchFileResult> {
  const { tax, plan, resumed, read, runOptions, requests, writer, rejects, checkpoints, options, stand } =
    open;
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
