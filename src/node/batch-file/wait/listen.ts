import {
  registerWebhookEndpoint,
  unregisterWebhookEndpoint,
} from '../../../tax/webhooks/register-endpoint.js';
import type { BatchFileOptions, BatchFileWaitOptions } from '../options.js';
import { readBackResults } from '../output/earlier-results.js';
import type { RowWriter } from '../output/writers.js';
import type { OutcomeJournal } from '../state/journal.js';
import type { RunLedger } from '../state/ledger.js';
import { CompletionJoiner, type ResultFetcher } from './joiner.js';

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
