import { SvcError } from '../../core/errors/error-classes.js';
import { currentRuntime } from '../../core/runtime.js';

/**
 * A transport whose library cannot load here (undici in a runtime that refuses what it does on
 * load, `node:http` where there is none): a configuration error, code `config`, never a
 * `ConnectionError`, so it is neither retried nor taken for an outage (no fail-open).
 */
export function transportLoadError(transport: string, cause: unknown): SvcError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new SvcError(
    `The ${transport} transport cannot load in this runtime (${currentRuntime().name}): ${reason}; ` +
      'pass the fetch or transport option',
    'config',
    { cause },
  );
}
