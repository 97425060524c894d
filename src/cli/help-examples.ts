import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HELP_EXAMPLES } from './registry.js';

// The examples are derived from the command modules (registry.ts); re-exported for its readers.
export { HELP_EXAMPLES };

/** The path of a command from the root, e.g. `audit export`. */
function pathOf(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The examples of a command: its own, else (for a group's `help`) two made from the group, else
 * the first of each subcommand, at most three.
 */
export function examplesFor(command: CommandUnknownOpts): readonly string[] {
  const own = HELP_EXAMPLES[pathOf(command)];
  if (own) return own;
  const group = command.parent;
  if (command.name() === 'help' && group?.parent) {
    const first = group.commands.find((c) => c !== command)?.name() ?? '';
    return [`svc ${pathOf(group)} help ${first}`, `svc help ${pathOf(group)} ${first}`];
  }
  return command.commands
    .map((sub) => HELP_EXAMPLES[pathOf(sub)]?.[0])
    .filter((e): e is string => e !== undefined)
    .slice(0, 3);
}
