/** Base class of every error this package throws. Messages never contain an API key. */
export class SvcError extends Error {
  override name = 'SvcError';
  /** Stable machine-readable code, e.g. `http_404`, `connection`, `timeout`, `local_validation`. */
  readonly code: string;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Type guard for any error of this package. */
export function isSvcError(value: unknown): value is SvcError {
  return value instanceof SvcError;
}
