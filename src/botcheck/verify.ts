import { LocalValidationError } from '../core/errors/error-classes.js';
import type { BotCheckClient } from './current-client.js';
import type { LegacyAssessmentResult, LegacyBotCheckClient } from './legacy-client.js';
import type { VerifyOptions, VerifyOutcome } from './run-verify.js';
import type { VerificationResult } from './schemas.js';

/** Options of the standalone {@link verify}. */
export interface VerifyWithClientOptions extends VerifyOptions {
  /**
   * Which bot-check API to ask, for a client that has both (an `SvcClient`). Default `current`.
   * A `BotCheckClient` or `LegacyBotCheckClient` alone asks its own API; naming the other one
   * throws `LocalValidationError`.
   */
  api?: 'current' | 'legacy';
  /** @deprecated Legacy API only: access token sent as query parameter instead of the key header. */
  accessToken?: string;
}

/** The two bot-check clients of an `SvcClient`. */
export interface SvcBotCheckClients {
  botCheck: {
    /** The current API's verify: decode, fetch once, evaluate. */
    verify(
      tokenOrId: string | null | undefined,
      options?: VerifyOptions,
    ): Promise<VerifyOutcome<VerificationResult>>;
  };
  legacyBotCheck: {
    /** The legacy API's verify: decode, fetch once, evaluate. */
    verify(
      tokenOrId: string | null | undefined,
      options?: VerifyOptions & { accessToken?: string },
    ): Promise<VerifyOutcome<LegacyAssessmentResult>>;
  };
}

/**
 * What {@link verify} (and `verifyRequest`, the adapters) take: an `SvcClient`, or a
 * `BotCheckClient` or `LegacyBotCheckClient` standing alone (`svc-sdk/botcheck`).
 */
export type BotCheckClients = SvcBotCheckClients | BotCheckClient | LegacyBotCheckClient;

function wrongApi(api: string): LocalValidationError {
  return new LocalValidationError(
    [{ path: 'api', message: `this client asks only the ${api === 'legacy' ? 'current' : 'legacy'} API` }],
    'verify options',
  );
}

/**
 * `client.botCheck.verify` (or `client.legacyBotCheck.verify` with `api: 'legacy'`) as a function;
 * with a `BotCheckClient` or `LegacyBotCheckClient`, that client's `verify`.
 * A verification id is answered once per client: a second call gets a reject (`REPLAYED`) unless
 * `onReplay: 'shareFirstAnswer'` is set.
 *
 * @throws {LocalValidationError} for a bad policy or binding option, or an `api` the client does
 *   not ask; never for service errors.
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
  if ('botCheck' in client) {
    return api === 'legacy'
      ? client.legacyBotCheck.verify(tokenOrId, rest)
      : client.botCheck.verify(tokenOrId, rest);
  }
  const legacy = 'getAssessment' in client;
  if (api !== undefined && (api === 'legacy') !== legacy) return Promise.reject(wrongApi(api));
  return client.verify(tokenOrId, rest);
}
