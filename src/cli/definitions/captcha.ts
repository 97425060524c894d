import { type Command, Option } from '@commander-js/extra-typings';
import { DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import { choiceOption, FAILOVER_DECISIONS } from '../choices.js';
import type { OptionsOf } from '../command.js';

const POLICY_HELP =
  'decision rule: threshold[:T] (accept below T, default 0.5) | multi-stage[:LOW,HIGH] ' +
  '(extra check from LOW, reject from HIGH; default 0.4,0.8) | pow-only';

/** What `captcha result` and `captcha legacy` share: the id or token, the decision options. */
export const decisionCommand = (cmd: Command) =>
  cmd
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
export type CaptchaOptions = OptionsOf<typeof decisionCommand>;

/** `svc captcha legacy`, before its action. */
export const captchaLegacyCommand = (captcha: Command) =>
  decisionCommand(
    captcha.command('legacy').description('legacy API: fetch an assessment (consumes it) and decide'),
  ).addOption(
    new Option('--access-token <token>', 'deprecated: send this access token instead of the API key'),
  );

/** The options of `svc captcha legacy`. */
export type CaptchaLegacyOptions = OptionsOf<typeof captchaLegacyCommand>;

/** `svc captcha token`, before its action. */
export const captchaTokenCommand = (captcha: Command) =>
  captcha
    .command('token')
    .description(
      'dev server only (svc serve, --sandbox): mint a fresh verification token; prints the token alone (-o json: id and token)',
    )
    .addOption(
      choiceOption(
        '--outcome <outcome>',
        'what its result says (docs/reference-server.md)',
        DEV_OUTCOMES,
      ).default('pass' as const),
    );

/** The options of `svc captcha token`. */
export type CaptchaTokenOptions = OptionsOf<typeof captchaTokenCommand>;
