import { batchSenderOf, type TaxClient } from '../../tax/client.js';
import type { BatchFileOptions, BatchFileResult } from './options.js';
import type { BatchFileClient } from './phases/context.js';

function isBatchFileClient(client: TaxClient | BatchFileClient): client is BatchFileClient {
  return typeof (client as Partial<BatchFileClient>)._submitBatch === 'function';
}

/**
 * Validates every row of a CSV file or Excel workbook, file to file: a results file (NDJSON, CSV
 * or `.xlsx` by its name), an optional rejects file and a state file, checkpointed once a second.
 * Columns are recognised as people name them (`Land`, `USt-IdNr`, ...) or mapped with
 * `input.columns`. With `resume: { continue: true }` a killed run continues where its state file
 * says, and the deterministic idempotency keys make sure no row is validated twice; with `wait`,
 * outcomes are joined in from webhooks. The options come in groups: `input`, `output`, `resume`,
 * `send`, `wait` (see {@link BatchFileOptions}). Node only (`svc-sdk/node`).
 *
 * `tax` is a client's `client.tax` (or, in tests, a {@link BatchFileClient}).
 *
 * Rejects with `BatchInputError` (bad input or options, nothing sent), `BatchInterruptedError`
 * (the signal fired; resumable) or `BatchFileStoppedError` (402 plan limit, key problem; resumable).
 *
 * @example
 * await runBatchFile(client.tax, {
 *   input: { path: 'customers.csv' },
 *   output: { path: 'results.ndjson' },
 *   resume: { continue: true },
 * });
 * await runBatchFile(client.tax, {
 *   input: { path: 'kunden.xlsx', columns: { rawValue: 'Nummer' } },
 *   output: { path: 'ergebnis.xlsx' },
 * });
 */
export async function runBatchFile(
  client: TaxClient | BatchFileClient,
  options: BatchFileOptions,
): Promise<BatchFileResult> {
  const tax = isBatchFileClient(client) ? client : batchSenderOf(client);
  // Loaded at the call: CSV, workbooks, checkpoints are no part of `import('svc-sdk/node')`.
  const { runBatchFileWith } = await import('./run.js');
  return runBatchFileWith(tax, options);
}
