import type { Command } from '@commander-js/extra-typings';
import type { Runner } from '../action.js';

/** `svc version`: the same line as `svc --version`. */
export function defineVersionCommand(program: Command, run: Runner): void {
  program
    .command('version')
    .description('print the version')
    .action(run(async () => (await import('../commands/version.js')).version));
}
