import { DEV_OUTCOME_DESCRIPTIONS } from '../../botcheck/dev-outcomes.js';
import { createDevVerification } from '../../botcheck/dev-verification.js';
import type { CommandContext } from '../context.js';
import type { CaptchaTokenOptions } from '../options/captcha-token-options.js';
import { fieldsView } from '../output.js';

/**
 * `svc captcha token [--outcome O]`: a fresh verification on a dev server. Without `-o` stdout
 * holds the token alone, for `$(svc captcha token)`; `-o json|ndjson` prints `{verificationId,
 * token, outcome}`. The deprecated access token is a secret and never printed.
 */
export async function captchaToken(ctx: CommandContext, flags: CaptchaTokenOptions): Promise<number> {
  const client = await ctx.client.get();
  const created = await createDevVerification(client, {
    outcome: flags.outcome,
    ...ctx.signals.abortable,
  });
  const shown = { verificationId: created.verificationId, token: created.token, outcome: flags.outcome };
  if (ctx.settings.flags.output === undefined) {
    ctx.out.line(shown.token);
    ctx.out.info(
      `verification ${shown.verificationId}, outcome ${flags.outcome}: ${DEV_OUTCOME_DESCRIPTIONS[flags.outcome]}`,
    );
    return 0;
  }
  await ctx.out.print(shown, () =>
    fieldsView([
      ['verificationId', shown.verificationId],
      ['token', shown.token],
      ['outcome', shown.outcome],
    ]),
  );
  return 0;
}
