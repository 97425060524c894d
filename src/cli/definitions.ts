import { type Command, Option } from 'commander';
import type { CliIO } from './io.js';
import { type Handler, lazy, type RunState } from './program.js';

/** Registers every command; handlers live in `commands/` and load on use. */
export function defineCommands(program: Command, io: CliIO, state: RunState): void {
  const run = (load: () => Promise<Handler>) => lazy(io, state, load);

  const config = program.command('config').description('manage profiles in the config file (mode 0600)');
  config
    .command('set')
    .description('set a setting; with no value, read it from stdin (for keys)')
    .argument(
      '<key>',
      'base-url | api-key | audit-api-key | captcha-api-key | legacy-api-key | output | timeout | max-retries',
    )
    .argument('[value]', 'the value (omit for keys: read from stdin)')
    .action(run(async () => (await import('./commands/config.js')).configSet));
  config
    .command('get')
    .description('print one setting of the profile (keys masked)')
    .argument('<key>')
    .action(run(async () => (await import('./commands/config.js')).configGet));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .argument('<key>')
    .action(run(async () => (await import('./commands/config.js')).configUnset));
  config
    .command('list')
    .description('list the settings of every profile (keys masked)')
    .action(run(async () => (await import('./commands/config.js')).configList));
  config
    .command('path')
    .description('print the config file path')
    .action(run(async () => (await import('./commands/config.js')).configPath));

  program
    .command('serve')
    .description('run the in-memory reference server of the four APIs')
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port (0 picks a free one)').default('4010'))
    .addOption(new Option('--seed-audit-events <n>', 'generate N audit events for the demo project'))
    .action(run(async () => (await import('./commands/serve.js')).serve));
}
