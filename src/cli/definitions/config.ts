import { Argument, type Command } from '@commander-js/extra-typings';
import type { Runner } from '../command.js';
import { asConfigKey, CONFIG_KEYS } from '../config-store.js';

/** `<key>`: one of the settings a profile holds. */
const keyArgument = (description?: string) =>
  new Argument('<key>', description).choices(CONFIG_KEYS).argParser(asConfigKey);

/** `svc config set|get|unset|list|path`. */
export function defineConfigCommands(program: Command, run: Runner): void {
  const load = async () => import('../commands/config.js');
  const config = program
    .command('config')
    .description(
      'manage profiles in the config file (owner-only: mode 0600 on Linux/macOS; in your user profile on Windows)',
    );
  config
    .command('set')
    .description('set a setting; with no value, read it from stdin (for keys)')
    .addArgument(keyArgument('the setting'))
    .argument('[value]', 'the value (omit for keys: read from stdin)')
    .action(run(async () => (await load()).configSet));
  config
    .command('get')
    .description('print one setting of the profile (keys masked)')
    .addArgument(keyArgument())
    .action(run(async () => (await load()).configGet));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .addArgument(keyArgument())
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
