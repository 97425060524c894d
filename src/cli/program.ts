import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { VERSION } from '../version.js';
import { lazy, type RunState } from './action.js';
import { addGlobalOptions } from './global-options.js';
import { applyHelpExtras } from './help-extras.js';
import type { CliIO } from './io.js';
import { OUTPUT_CONTRACT, registerCommands } from './registry.js';

export type { RunState } from './action.js';

/** Every command throws instead of exiting and writes to `io`; errors are printed once, by main. */
function configure(command: CommandUnknownOpts, io: CliIO): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    outputError: () => {},
  });
  for (const sub of command.commands) configure(sub, io);
}

/** Builds the `svc` program with every global option and command. */
export function buildProgram(io: CliIO, state: RunState) {
  const program = addGlobalOptions(
    new Command('svc')
      .description('Tax-ID validation, audit log export and bot-check verification from the terminal')
      .version(VERSION, '-V, --version', 'print the version'),
  ).showSuggestionAfterError(true);
  registerCommands(program, (load) => lazy(io, state, () => program.opts(), load, OUTPUT_CONTRACT));
  applyHelpExtras(program);
  configure(program, io);
  return program;
}
