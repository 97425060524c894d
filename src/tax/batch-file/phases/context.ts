import type { Checkpointer, DurableOutput } from '../../../node/checkpoint.js';
import type { BatchSender, RunBatchOptions } from '../../batch/types.js';
import type { BatchFileOptions } from '../options.js';
import type { RowWriter } from '../output/writers.js';
import type { RunLedger } from '../state/ledger.js';
import type { BatchFileState } from '../state/state-file.js';
import type { ResultFetcher } from '../wait/joiner.js';
import type { ReadInput } from './read.js';

/** What a batch file run needs of the tax client. */
export interface BatchFileClient extends ResultFetcher, BatchSender {}

/** What the phases of one file run share, once its input and outputs are open. */
export interface RunContext {
  tax: BatchFileClient;
  options: BatchFileOptions;
  /** The input, open, with its columns mapped. */
  read: ReadInput;
  /** Seed of the idempotency keys. */
  runId: string;
  /** The runner's options (also used to rebuild a row's request for reconciliation). */
  runOptions: RunBatchOptions;
  writer: RowWriter;
  /** The rejects file (CSV in the results' style), if asked for. */
  rejects: DurableOutput | undefined;
  ledger: RunLedger;
  checkpoints: Checkpointer<BatchFileState>;
  /** The state file a stopped run can be resumed from, if any. */
  keptState: string | undefined;
}
