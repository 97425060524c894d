import { defineCommand } from '../command.js';
import { captchaTokenOptions } from '../options/captcha-token-options.js';

/** `svc captcha token`: its handler (captcha-token.ts) loads when it runs. */
export const captchaTokenCommand = defineCommand({
  path: 'captcha token',
  summary:
    'dev server only (svc serve, --sandbox): mint a fresh verification token; prints the token alone (-o json: id and token)',
  configure: captchaTokenOptions,
  // Without -o: the token alone on stdout, for $(svc captcha token).
  outputs: ['json', 'ndjson'],
  examples: [
    'TOKEN=$(svc captcha token --base-url http://127.0.0.1:4010)',
    'svc captcha token --outcome challenge -o json --base-url "$URL"',
  ],
  load: async () => (await import('../handlers/captcha-token.js')).captchaToken,
});
