import type { SvcClientOptions } from './client-options.js';

/** Environment variables {@link SvcClient.fromEnv} and the `env` option read, by the option they fill. */
const CLIENT_ENV_VARS = {
  baseUrl: 'SVC_BASE_URL',
  apiKey: 'SVC_API_KEY',
  auditApiKey: 'SVC_AUDIT_API_KEY',
  captchaApiKey: 'SVC_CAPTCHA_API_KEY',
  legacyApiKey: 'SVC_LEGACY_API_KEY',
} as const;

/** The client options an environment supplies; an empty variable counts as unset. */
export function optionsFromEnv(env: Readonly<Record<string, string | undefined>>): SvcClientOptions {
  const options: Record<string, string> = {};
  for (const [option, name] of Object.entries(CLIENT_ENV_VARS)) {
    const value = env[name];
    if (value !== undefined && value !== '') options[option] = value;
  }
  return options;
}
