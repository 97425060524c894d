import { SvcError } from '../../core/errors/error-classes.js';

/**
 * A batch run stopped before the end because going on could not help (402 plan limit, 401/403
 * key problem). Every row before `nextRow` was yielded; none from `nextRow` on was reported.
 */
export class BatchStoppedError extends SvcError {
  override name = 'BatchStoppedError';
  /** 1-based number of the first row that was not reported. */
  readonly nextRow: number;

  constructor(message: string, nextRow: number, cause: unknown) {
    super(message, 'batch_stopped', { cause });
    this.nextRow = nextRow;
  }
}
