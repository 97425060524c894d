import { SvcError } from './svc-error.js';

/**
 * An output, state or input path cannot be used as given, found before any byte was written: two
 * of them are the same file, an output exists and is not this run's own (pass `force`), it is a
 * directory, or it is a symbolic link to a file. Code `config` (the CLI exits 2).
 */
export class OutputPathError extends SvcError {
  override name = 'OutputPathError';

  constructor(message: string) {
    super(message, 'config');
  }
}
