import { decodeVerificationToken } from '../../botcheck/token.js';
import type { CommandContext } from '../context.js';
import { readAll } from '../io.js';
import { fieldsView } from '../output.js';

/** `svc token decode <token | ->`: offline; the encrypted access token is never printed. */
export async function tokenDecode(ctx: CommandContext, text: string): Promise<number> {
  if (text === '-' && ctx.io.stdinIsTTY)
    ctx.out.info('paste the token, then press Enter and Ctrl-D (Ctrl-C cancels)');
  const token = decodeVerificationToken(
    text === '-' ? (await readAll(ctx.io.stdin, ctx.signals.signal)).trim() : text,
  );
  if (token.apiEndpoint !== undefined) {
    ctx.out.info('apiEndpoint is deprecated and never used: requests go to the configured base URL');
  }
  const shown = {
    verificationId: token.verificationId,
    apiEndpoint: token.apiEndpoint,
    encryptedAccessToken: token.encryptedAccessToken === undefined ? undefined : '[redacted]',
  };
  await ctx.out.print(shown, () =>
    fieldsView([
      ['verificationId', shown.verificationId],
      ['apiEndpoint (deprecated, ignored)', shown.apiEndpoint],
      ['encryptedAccessToken (deprecated)', shown.encryptedAccessToken],
    ]),
  );
  return 0;
}
