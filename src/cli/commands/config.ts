import { Argument, type Command } from '@commander-js/extra-typings';
import { defineCommand, defineGroup } from '../command.js';
import { asConfigKey, CONFIG_KEYS } from '../config-store.js';

// `svc config set|get|unset|list|path`: five small command modules and their group in one file,
// since they share the `<key>` argument and one handler file (config.ts, loaded when one runs).

/** `<key>`: one of the settings a profile holds. */
const keyArgument = (description?: string) =>
  new Argument('<key>', description).choices(CONFIG_KEYS).argParser(asConfigKey);

const handlers = async () => import('../handlers/config.js');

/** `svc config`. */
export const configGroup = defineGroup({
  path: 'config',
  summary:
    'manage profiles in the config file (owner-only: mode 0600 on Linux/macOS; in your user profile on Windows)',
});

/** `svc config set <key> [value]`. */
export const configSetCommand = defineCommand({
  path: 'config set',
  summary: 'set a setting; with no value, read it from stdin (for keys)',
  configure: (command: Command) =>
    command
      .addArgument(keyArgument('the setting'))
      .argument('[value]', 'the value (omit for keys: read from stdin)'),
  outputs: [],
  examples: [
    'svc config set api-key                 # reads the key from stdin',
    'svc config set base-url https://api.example.com',
    'svc --profile staging config set output json',
  ],
  load: async () => (await handlers()).configSet,
});

/** `svc config get <key>`. */
export const configGetCommand = defineCommand({
  path: 'config get',
  summary: 'print one setting of the profile (keys masked)',
  configure: (command: Command) => command.addArgument(keyArgument()),
  outputs: [],
  examples: ['svc config get base-url', 'svc --profile staging config get api-key'],
  load: async () => (await handlers()).configGet,
});

/** `svc config unset <key>`. */
export const configUnsetCommand = defineCommand({
  path: 'config unset',
  summary: 'remove one setting from the profile',
  configure: (command: Command) => command.addArgument(keyArgument()),
  outputs: [],
  examples: ['svc config unset timeout', 'svc --profile staging config unset api-key'],
  load: async () => (await handlers()).configUnset,
});

/** `svc config list`. */
export const configListCommand = defineCommand({
  path: 'config list',
  summary: 'list the settings of every profile (keys masked)',
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: ['svc config list', 'svc config list -o json'],
  load: async () => (await handlers()).configList,
});

/** `svc config path`. */
export const configPathCommand = defineCommand({
  path: 'config path',
  summary: 'print the config file path',
  outputs: [],
  examples: ['svc config path', '$EDITOR "$(svc config path)"'],
  load: async () => (await handlers()).configPath,
});
