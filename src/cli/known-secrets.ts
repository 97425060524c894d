import { CONFIG_KEYS, type ConfigKey, isSecretKey, trimmedValue } from './config-store.js';
import { type NetworkInputs, proxySecrets } from './network-settings.js';

/** The variables that may hold a key, redacted from every line. */
const KEY_VARIABLES = [
  'SVC_API_KEY',
  'SVC_AUDIT_API_KEY',
  'SVC_CAPTCHA_API_KEY',
  'SVC_LEGACY_API_KEY',
  'SVC_SHIP_API_KEY',
  'SVC_SHIP_PASSWORD',
  'SVC_SHIP_TOKEN',
  'SVC_PUSH_SECRET',
  'SVC_PUSH_BEARER',
];

/** The profile settings that hold a key: the secret ones (config-store.ts has the one list). */
const KEY_SETTINGS: readonly ConfigKey[] = CONFIG_KEYS.filter(isSecretKey);

/**
 * Every secret a run knows, trimmed as sent, for redaction: those a command added (`extra`),
 * `--api-key`, each key variable of the environment, each secret setting of the profile and the
 * proxies' passwords.
 */
export function knownSecrets(
  extra: readonly string[],
  apiKeyFlag: string | undefined,
  network: NetworkInputs,
): string[] {
  const profile = network.profile ?? {};
  return [
    ...extra,
    apiKeyFlag,
    ...KEY_VARIABLES.map((name) => network.env[name]),
    ...KEY_SETTINGS.map((key) => profile[key]),
    ...proxySecrets(network),
  ]
    .map(trimmedValue)
    .filter((k): k is string => typeof k === 'string' && k.length > 0);
}
