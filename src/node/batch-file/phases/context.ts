import type { TaxBatchAccess } from '../../../tax/batch/types.js';
import type { RunLedger } from '../state/ledger.js';
import type { RowRequest } from '../wait/reconcile.js';

/** What a batch file run needs of the tax client. */
export type BatchFileClient = TaxBatchAccess;

/**
 * The original requests of `rows` (ascending), rebuilt from the input exactly as they were sent
 * (for resending and reconciliation).
 */
export type RowRequests = (rows: readonly number[]) => AsyncIterable<RowRequest>;

/** Where a run stands, for the error that says how to go on when a phase stops. */
export interface RunStand {
  ledger: RunLedger;
  /** The state file a stopped run can be resumed from, if any. */
  keptState: string | undefined;
}
