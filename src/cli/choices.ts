import { Option } from '@commander-js/extra-typings';
import { DECISIONS } from '../botcheck/evaluate.js';
import { UsageError } from './usage-error.js';

/** The values `svc completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** Values of `captcha --on-failover`: the decision for a result the failover gateway made up. */
export const FAILOVER_DECISIONS = DECISIONS;

/** Values of `batch --strategy`: one batch request per chunk, or one request per row. */
export const BATCH_STRATEGIES = ['batch', 'single'] as const;

/** The usage line for a value not among `choices`: `--name must be one of a, b, c, got 'x'`. */
export function choiceRefusal(name: string, choices: readonly string[], value: string): string {
  return `${name} must be one of ${choices.join(', ')}, got '${value}'`;
}

/**
 * An option that takes one of `choices`, declared once: commander shows them in the help and in
 * `svc completion`, and anything else is a {@link UsageError} (`--name must be one of ...`).
 * `normalize` maps the value first (e.g. to upper case, so case does not matter).
 */
export function choiceOption<Usage extends string, const T extends readonly string[]>(
  flags: Usage,
  description: string,
  choices: T,
  normalize?: (value: string) => string,
) {
  const name = /--[a-z-]+/.exec(flags)?.[0] ?? flags;
  return new Option(flags, description)
    .choices(choices)
    .argParser(oneOf(choices, (value) => choiceRefusal(name, choices, value), normalize));
}

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
