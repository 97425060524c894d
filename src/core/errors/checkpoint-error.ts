import { SvcError } from './svc-error.js';

/** A state file or output cannot be used to resume. `code` is `bad_state`, `resume_failed` or the caller's choice. */
export class CheckpointError extends SvcError {
  override name = 'CheckpointError';
}
