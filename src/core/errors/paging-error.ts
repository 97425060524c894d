import { SvcError } from './svc-error.js';

/**
 * The server's paging cannot be trusted: a cursor it already returned, too many empty pages in a
 * row that still carry a cursor, or more events than its own `totalElements`. Paging stopped
 * before the page that broke the rule was handed on; not retried.
 */
export class PagingError extends SvcError {
  override name = 'PagingError';

  constructor(message: string, code: 'repeated_cursor' | 'endless_paging' | 'count_exceeded') {
    super(message, code);
  }
}
