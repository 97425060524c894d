import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { BatchStoppedError } from '../../tax/batch/batch-stopped-error.js';

/**
 * A batch file run cannot start: the input is unreadable or malformed CSV, the header lacks the
 * required columns, the options contradict each other, or the state file to resume from is
 * missing or belongs to another input. Nothing was sent. Code `config`.
 */
export class BatchInputError extends SvcError {
  override name = 'BatchInputError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'config', options);
  }
}

/**
 * The caller's signal stopped a batch file run. What was reported before is on disk and, when the
 * run has a state file, named by it: run again with `resume: { continue: true }` to continue.
 */
export class BatchInterruptedError extends AbortError {
  override name = 'BatchInterruptedError';

  constructor(
    /** The last row reported (and checkpointed). */
    readonly rowsDone: number,
    /** The state file to resume from; undefined when the run kept none (output to a stream). */
    readonly statePath: string | undefined,
  ) {
    super(
      `Batch interrupted after row ${rowsDone}${statePath ? `; state saved to ${statePath}` : '; no state kept'}`,
    );
  }
}

/**
 * A batch file run stopped because going on could not help (402 plan limit, 401/403 key
 * problem). The state file records why; every row before `nextRow` is on disk.
 */
export class BatchFileStoppedError extends BatchStoppedError {
  override name = 'BatchFileStoppedError';

  constructor(
    stopped: BatchStoppedError,
    /** The last row reported (and checkpointed). */
    readonly rowsDone: number,
    /** The state file to resume from once the cause is fixed; undefined without one. */
    readonly statePath: string | undefined,
  ) {
    super(stopped.message, stopped.nextRow, stopped.cause);
  }
}

/**
 * A batch file run failed on an unexpected error (e.g. `EMFILE`, a full disk) after it started.
 * What was reported before is checkpointed: run again with `resume: { continue: true }` once the
 * cause is fixed. The original error is the `cause`. Code `batch_failed`.
 */
export class BatchFileFailedError extends SvcError {
  override name = 'BatchFileFailedError';

  constructor(
    cause: unknown,
    /** The last row reported (and checkpointed). */
    readonly rowsDone: number,
    /** The state file to resume from; undefined without one. */
    readonly statePath: string | undefined,
  ) {
    // A Node error's code (EMFILE, ...) says what failed; our own errors' codes name no cause.
    const errno = cause instanceof SvcError ? undefined : (cause as NodeJS.ErrnoException | undefined)?.code;
    const text = cause instanceof Error ? cause.message : String(cause);
    super(
      `Batch failed after row ${rowsDone}: ${errno && !text.includes(errno) ? `${errno}: ` : ''}${text}`,
      'batch_failed',
      { cause },
    );
  }
}
