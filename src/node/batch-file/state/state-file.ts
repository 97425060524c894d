import * as z from 'zod/mini';
import { lazySchema } from '../../../core/lazy-schema.js';
import { readStateFile } from '../../fs/checkpoint.js';
import { BatchInputError } from '../errors.js';

/** What a batch file run records at each checkpoint, so a resumed run can continue it. */
export const BatchFileStateSchema = lazySchema(() =>
  z.looseObject({
    version: z.literal(1),
    /** Seed of the idempotency keys; by default the sha256 of the input. */
    runId: z.string(),
    input: z.object({ path: z.string(), size: z.number().check(z.int()).check(z.gte(0)) }),
    /** Rows fully reported: their output lines (and reject lines) are on disk. */
    rowsDone: z.number().check(z.int()).check(z.gte(0)),
    /** Durable size of the results file. */
    outBytes: z.number().check(z.int()).check(z.gte(0)),
    /** Durable size of the rejects file (0 without one). */
    rejectsBytes: z.number().check(z.int()).check(z.gte(0)),
    /** Rows per status (`completed:<outcome>` for completed rows). */
    counts: z.record(z.string(), z.number().check(z.int()).check(z.gte(0))),
    /** Set when the run stopped for a reason that resuming alone will not fix (e.g. a plan limit). */
    stoppedBy: z.optional(z.string()),
    updatedAt: z.string(),
  }),
);
export type BatchFileState = z.infer<ReturnType<typeof BatchFileStateSchema>>;

/** Loads the state to resume from; a missing, unreadable or foreign state is a {@link BatchInputError}. */
export async function loadBatchState(path: string, runId: string): Promise<BatchFileState> {
  let state: BatchFileState | undefined;
  try {
    state = await readStateFile(path, BatchFileStateSchema(), {
      notJson: `state file ${path} is not valid JSON`,
      notState: `state file ${path} is not a batch state`,
      code: 'config',
    });
  } catch (error) {
    throw new BatchInputError((error as Error).message, { cause: error });
  }
  if (!state) throw new BatchInputError(`no state file at ${path} to resume from`);
  if (state.runId !== runId) {
    throw new BatchInputError(
      `state file ${path} belongs to another input (the input changed since the interrupted run)`,
    );
  }
  return state;
}
