import type { LegacyAssessmentResult } from './legacy-client.js';
import type { VerifyOptions, VerifyOutcome } from './run-verify.js';
import type { VerificationResult } from './schemas.js';

/** Options of the standalone {@link verify}. */
export interface VerifyWithClientOptions extends VerifyOptions {
  /** Which bot-check API to ask. Default `current`. */
  api?: 'current' | 'legacy';
  /** @deprecated Legacy API only: access token sent as query parameter instead of the key header. */
  accessToken?: string;
}

/** What {@link verify} needs of a client: an `SvcClient` has both. */
export interface BotCheckClients {
  botCheck: {
    verify(
      tokenOrId: string | null | undefined,
      options?: VerifyOptions,
    ): Promise<VerifyOutcome<VerificationResult>>;
  };
  legacyBotCheck: {
    verify(
      tokenOrId: string | null | undefined,
      options?: VerifyOptions & { accessToken?: string },
    ): Promise<VerifyOutcome<LegacyAssessmentResult>>;
  };
}

/**
 * `client.botCheck.verify` (or `client.legacyBotCheck.verify` with `api: 'legacy'`) as a function.
 * A verification id is answered once per client: a second call gets a reject (`REPLAYED`) unless
 * `onReplay: 'shareFirstAnswer'` is set.
 *
 * @example
 * const { decision, reasons } = await verify(client, extractToken(req.body), {
 *   policy: { kind: 'multiStage' },
 *   expectedOrigins: ['https://www.example.com'],
 *   maxAgeMs: 5 * 60_000,
 * });
 */
export function verify(
  client: BotCheckClients,
  tokenOrId: string | null | undefined,
  options: VerifyWithClientOptions = {},
): Promise<VerifyOutcome<VerificationResult | LegacyAssessmentResult>> {
  const { api, ...rest } = options;
  return api === 'legacy'
    ? client.legacyBotCheck.verify(tokenOrId, rest)
    : client.botCheck.verify(tokenOrId, rest);
}
