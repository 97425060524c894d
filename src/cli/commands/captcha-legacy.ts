import { defineCommand } from '../command.js';
import { captchaLegacyOptions } from '../options/captcha-options.js';

/** `svc captcha legacy ID|TOKEN`: as `captcha result`, on the legacy API; its handler (captcha.ts) loads when it runs. */
export const captchaLegacyCommand = defineCommand({
  path: 'captcha legacy',
  summary: 'legacy API: fetch an assessment (consumes it) and decide',
  configure: captchaLegacyOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: ['svc captcha legacy "$TOKEN"', 'svc captcha legacy "$ID" --on-failover reject -o json'],
  load: async () => (await import('../handlers/captcha.js')).captchaLegacy,
});
