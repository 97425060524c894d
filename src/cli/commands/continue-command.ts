import type { CommandUnknownOpts } from '@commander-js/extra-typings';

/** One word of a command line as a POSIX shell reads it back: bare when plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Options never repeated in a printed command: their values are secrets (a `--sign-key` is a file's path). */
const SECRET = /api-key|secret|token|password/i;

/**
 * The command line that runs `command` again as it was given: `svc`, its path (`audit export`),
 * its arguments, and each of its own options the user typed (values from defaults, the
 * environment or a profile are left to come from there again; no option whose name says it holds
 * a secret), quoted for a shell; minus `drop` (long flags), plus `add`.
 */
export function continueCommand(
  command: CommandUnknownOpts,
  change: { drop?: readonly string[]; add?: readonly string[] } = {},
): string {
  const path: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  const words = ['svc', ...path, ...command.args.map(shellWord)];
  const values = command.opts() as Record<string, unknown>;
  for (const option of command.options) {
    const name = option.attributeName();
    const flag = option.long ?? option.short ?? '';
    if (command.getOptionValueSource(name) !== 'cli' || SECRET.test(flag)) continue;
    if (change.drop?.includes(flag) || change.add?.includes(flag)) continue;
    const value = values[name];
    if (typeof value === 'boolean') {
      // `--bom`/`--no-bom` share one value: the flag that set it is the one that says it.
      if (value !== option.negate) words.push(flag);
    } else if (Array.isArray(value)) {
      for (const one of value) words.push(flag, shellWord(String(one)));
    } else if (value !== undefined) words.push(flag, shellWord(String(value)));
  }
  words.push(...(change.add ?? []));
  return words.join(' ');
}
