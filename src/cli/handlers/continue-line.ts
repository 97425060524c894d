import type { CommandUnknownOpts } from '@commander-js/extra-typings';

/** One word of a command line as a POSIX shell reads it back: bare when plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Options never repeated in a printed command: their values are secrets (a `--sign-key` is a file's path). */
const SECRET = /api-key|secret|token|password/i;

/**
 * The retry bounds the run gave up within: the continuing command takes the defaults again
 * rather than giving up the same way.
 */
const RETRY_BOUNDS = ['--max-retries', '--retry-for'];

/** A proxy URL with a user name or password in it: a secret, never repeated. */
const WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/**
 * The options of one command the user typed, as words (values from defaults, the environment or
 * a profile are left to come from there again; no option whose name says it holds a secret, no
 * URL with credentials in it), minus `skip` (long flags).
 */
function typedOptions(command: CommandUnknownOpts, skip: readonly string[]): string[] {
  const words: string[] = [];
  const values = command.opts() as Record<string, unknown>;
  for (const option of command.options) {
    const name = option.attributeName();
    const flag = option.long ?? option.short ?? '';
    if (command.getOptionValueSource(name) !== 'cli' || SECRET.test(flag) || skip.includes(flag)) continue;
    const value = values[name];
    if (typeof value === 'boolean') {
      // `--bom`/`--no-bom` share one value: the flag that set it is the one that says it.
      if (value !== option.negate) words.push(flag);
    } else if (Array.isArray(value)) {
      for (const one of value) words.push(flag, shellWord(String(one)));
    } else if (value !== undefined && !WITH_CREDENTIALS.test(String(value))) {
      words.push(flag, shellWord(String(value)));
    }
  }
  return words;
}

/**
 * The command line that runs `command` again as it was given: `svc` with the global options the
 * user typed (`--base-url`, `--profile`, ...), its path (`audit export`), its arguments, and each
 * of its own options the user typed, quoted for a shell (see {@link typedOptions}: secrets and
 * credentials are left to come from the environment or the profile again; the retry bounds
 * `--max-retries` and `--retry-for` are left to their defaults); minus `drop` (long flags), plus `add`.
 */
export function continueCommand(
  command: CommandUnknownOpts,
  change: { drop?: readonly string[]; add?: readonly string[] } = {},
): string {
  const skip = [...RETRY_BOUNDS, ...(change.drop ?? []), ...(change.add ?? [])];
  // Each command's name followed by the options typed for it, from the root down.
  const levels: string[][] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) {
    levels.unshift([c.name(), ...(c === command ? [] : typedOptions(c, skip))]);
    if (!c.parent.parent) levels.unshift(['svc', ...typedOptions(c.parent, skip)]);
  }
  const words = [...levels.flat(), ...command.args.map(shellWord), ...typedOptions(command, skip)];
  words.push(...(change.add ?? []));
  return words.join(' ');
}
