import { UsageError } from './usage-error.js';

/** The values `svc completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Values of `captcha --on-failover`: the decision for a result the failover gateway made up. */
export const FAILOVER_DECISIONS = ['accept', 'challenge', 'reject'] as const;

/** Values of `batch --strategy`: one batch request per chunk, or one request per row. */
export const BATCH_STRATEGIES = ['batch', 'single'] as const;

/**
 * A commander argument parser accepting only `choices` (after `normalize`); anything else is a
 * {@link UsageError} with the line `refuse` makes of the value. Pair it with `.choices(same list)`,
 * which shows the values in the help and in `svc completion`.
 */
export function oneOf<const T extends readonly string[]>(
  choices: T,
  refuse: (value: string) => string,
  normalize: (value: string) => string = (value) => value,
): (value: string) => T[number] {
  return (value) => {
    const chosen = normalize(value);
    if (!choices.includes(chosen)) throw new UsageError(refuse(value));
    return chosen;
  };
}
