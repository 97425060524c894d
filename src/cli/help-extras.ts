import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { CommanderError } from 'commander';
import { examplesFor } from './help-examples.js';

/** Commander's own "unknown command 'x' (Did you mean y?)" error, for a name under `parent`. */
function unknownCommand(parent: CommandUnknownOpts, name: string): CommanderError {
  const probe = new Command(parent.name())
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  for (const sub of parent.createHelp().visibleCommands(parent)) probe.command(sub.name());
  try {
    probe.parse([name], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error;
  }
  return new CommanderError(2, 'commander.unknownCommand', `error: unknown command '${name}'`);
}

/**
 * A real `help [command...]` under `parent`, in place of commander's implicit one, which printed
 * the full help and exited 0 for a name that does not exist. Unknown names are a usage error
 * (exit 2) with commander's suggestion.
 */
function addHelpCommand(parent: CommandUnknownOpts): void {
  parent.helpCommand(false);
  parent
    .command('help')
    .description('show help for a command')
    .argument(
      '[command...]',
      parent.parent
        ? 'the command, e.g. audit export'
        : "the command, e.g. audit export; 'reference' prints every command as Markdown",
    )
    .action(async (names: string[]) => {
      if (!parent.parent && names.length === 1 && names[0] === 'reference') {
        // `svc help reference`: the whole command reference as Markdown (as `gh help reference`).
        const { renderCliReference } = await import('./reference.js');
        parent.configureOutput().writeOut?.(renderCliReference(parent, examplesFor));
        return;
      }
      let target = parent;
      for (const name of names) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next) throw unknownCommand(target, name);
        target = next;
      }
      target.outputHelp();
    });
}

/**
 * A subcommand as listed in its parent's help: name and arguments, without `[options]`, so the
 * description column stays wide enough for commander to wrap it at 80 columns.
 */
function subcommandTerm(command: CommandUnknownOpts): string {
  return `${command.name()} ${command.usage().replace('[options]', '')}`.replace(/\s+/g, ' ').trim();
}

function walk(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return [command, ...command.commands.flatMap(walk)];
}

/**
 * Finishes the help of every command of `program`: the global options are listed in each
 * subcommand's help, examples close it, and `help <name>` refuses a name that does not exist.
 * Call once, after every command is defined and before output settings are applied.
 */
export function applyHelpExtras(program: CommandUnknownOpts): void {
  for (const command of walk(program)) {
    if (command.commands.length > 0) addHelpCommand(command);
  }
  for (const command of walk(program)) {
    command.configureHelp({ ...command.configureHelp(), showGlobalOptions: true, subcommandTerm });
    const examples = examplesFor(command);
    if (examples.length > 0) {
      command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
    }
  }
}
