import { type Command, Option } from '@commander-js/extra-typings';
import { choiceOption, FAILOVER_DECISIONS } from '../choices.js';
import type { OptionsOf } from '../command.js';

// `svc captcha result` and `svc captcha legacy`: the same decision, one handler file (captcha.ts).

const POLICY_HELP =
  'decision rule: threshold[:T] (accept below T, default 0.5) | multi-stage[:LOW,HIGH] ' +
  '(extra check from LOW, reject from HIGH; default 0.4,0.8) | pow-only';

/** The argument and decision options of `svc captcha result`, which `captcha legacy` has too. */
export const decisionOptions = (command: Command) =>
  command
    .argument('<verificationIdOrToken>', 'verification id, or the svc-verification-token of the form')
    .addOption(new Option('--policy <policy>', POLICY_HELP).default('threshold'))
    .addOption(
      choiceOption('--on-failover <decision>', 'decision for a failover result', FAILOVER_DECISIONS).default(
        'challenge' as const,
      ),
    )
    .addOption(
      new Option('--wait <ms>', 'keep asking while the verification is not finished (423), up to ms'),
    )
    .addOption(
      new Option('--expect-origin <url>', 'reject unless solved on this origin (repeatable)').argParser(
        (value: string, previous: string[] = []) => [...previous, value],
      ),
    )
    .addOption(new Option('--max-age <duration>', 'reject a result older than this, e.g. 90s, 5m, 2h'));

/** The options of `svc captcha result`, which `captcha legacy` has too. */
export type CaptchaOptions = OptionsOf<typeof decisionOptions>;

/** The argument and options of `svc captcha legacy`: the decision's, and its deprecated access token. */
export const captchaLegacyOptions = (command: Command) =>
  decisionOptions(command).addOption(
    new Option('--access-token <token>', 'deprecated: send this access token instead of the API key'),
  );

/** The options of `svc captcha legacy`, as its handler takes them. */
export type CaptchaLegacyOptions = OptionsOf<typeof captchaLegacyOptions>;
