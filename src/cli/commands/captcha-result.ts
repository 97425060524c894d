import { defineCommand } from '../command.js';
import { decisionOptions } from '../options/captcha-options.js';

/** `svc captcha result ID|TOKEN`: exit 0 accept, 3 reject, 4 extra check; its handler (captcha.ts) loads when it runs. */
export const captchaResultCommand = defineCommand({
  path: 'captcha result',
  summary: 'current API: fetch a result (consumes it) and decide',
  configure: decisionOptions,
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: [
    'svc captcha result "$TOKEN"',
    'svc captcha result "$VERIFICATION_ID" --policy threshold:0.3',
    'svc captcha result "$TOKEN" --policy multi-stage:0.4,0.8 --wait 3000',
  ],
  load: async () => (await import('../handlers/captcha.js')).captchaResult,
});
