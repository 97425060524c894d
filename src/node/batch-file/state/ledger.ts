import type { BatchRowResult } from '../../../tax/batch/types.js';
import type { BatchFileState } from './state-file.js';

/** The counting key of a row: its status, `completed:<outcome>` for completed rows. */
export const countKey = (r: BatchRowResult) =>
  r.status === 'completed' ? `completed:${r.outcome}` : r.status;

/**
 * What a file run has done so far, as its state file records it: the rows reported, the rows per
 * status, and the sizes of the outputs at the end of the last segment written whole (what a state
 * file may promise).
 */
export class RunLedger {
  /** Rows per status; `completed:<outcome>` for completed rows. Kept across a resume. */
  readonly counts: Record<string, number>;
  /** Rows an earlier run reported; this run reads but does not send them. */
  readonly skipRows: number;
  rowsDone: number;
  outBytes = 0;
  rejectsBytes = 0;
  /** Why the run stopped, when resuming alone will not fix it (e.g. a plan limit). */
  stoppedBy: string | undefined;

  constructor(
    private readonly runId: string,
    private readonly input: { path: string; size: number },
    resumed: BatchFileState | undefined,
  ) {
    this.counts = { ...resumed?.counts };
    this.skipRows = resumed?.rowsDone ?? 0;
    this.rowsDone = this.skipRows;
  }

  /** Counts one row under its status. */
  count(result: BatchRowResult): void {
    const key = countKey(result);
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  /** Empties the counts (before a merge counts the final results again). */
  clearCounts(): void {
    for (const key of Object.keys(this.counts)) delete this.counts[key];
  }

  /** The state to write now: a copy, as a checkpoint needs. */
  snapshot(): BatchFileState {
    return {
      version: 1,
      runId: this.runId,
      input: this.input,
      rowsDone: this.rowsDone,
      outBytes: this.outBytes,
      rejectsBytes: this.rejectsBytes,
      counts: { ...this.counts },
      ...(this.stoppedBy && { stoppedBy: this.stoppedBy }),
      updatedAt: new Date().toISOString(),
    };
  }
}
