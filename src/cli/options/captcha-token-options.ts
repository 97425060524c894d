import type { Command } from '@commander-js/extra-typings';
import { DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { choiceOption } from '../choices.js';
import type { OptionsOf } from '../command.js';

/** The options of `svc captcha token` (commands/captcha-token.ts registers it). */
export const captchaTokenOptions = (command: Command) =>
  command.addOption(
    choiceOption(
      '--outcome <outcome>',
      'what its result says (docs/reference-server.md)',
      DEV_OUTCOMES,
    ).default('pass' as const),
  );

/** The options of `svc captcha token`, as its handler takes them. */
export type CaptchaTokenOptions = OptionsOf<typeof captchaTokenOptions>;
