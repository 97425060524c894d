import type { Command } from 'commander';
import type { Runner } from '../program.js';

/** `svc config set|get|unset|list|path`. */
export function defineConfigCommands(program: Command, run: Runner): void {
  const load = async () => import('../commands/config.js');
  const config = program.command('config').description('manage profiles in the config file (mode 0600)');
  config
    .command('set')
    .description('set a setting; with no value, read it from stdin (for keys)')
    .argument(
      '<key>',
      'base-url | api-key | audit-api-key | captcha-api-key | legacy-api-key | output | timeout | max-retries',
    )
    .argument('[value]', 'the value (omit for keys: read from stdin)')
    .action(run(async () => (await load()).configSet));
  config
    .command('get')
    .description('print one setting of the profile (keys masked)')
    .argument('<key>')
    .action(run(async () => (await load()).configGet));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .argument('<key>')
    .action(run(async () => (await load()).configUnset));
  config
    .command('list')
    .description('list the settings of every profile (keys masked)')
    .action(run(async () => (await load()).configList));
  config
    .command('path')
    .description('print the config file path')
    .action(run(async () => (await load()).configPath));
}
