import type { HttpClient } from '../core/http.js';
import { path } from '../core/path.js';
import { parseResponse } from '../core/schema.js';
import { fetchResult, type GetResultOptions } from './fetch-result.js';
import { VerificationResult } from './schemas.js';
import { resolveVerificationId } from './token.js';
import { runVerify, VerifyCache, type VerifyOptions, type VerifyOutcome } from './verify.js';

/** The current bot-check result API (`/captcha/v2`), authenticated with a project key as Bearer. */
export class BotCheckClient {
  private readonly cache: VerifyCache<VerificationResult>;

  constructor(
    private readonly http: HttpClient,
    private readonly key: () => string | undefined,
  ) {
    this.cache = new VerifyCache(() => http.settings.now());
  }

  /**
   * Fetches the result of a verification by id or by its token (`svc-verification-token`). The
   * token's `apiEndpoint` is ignored: the request goes to the configured base URL. A fetch
   * consumes the result (once by default), so the call is retried only when the request was never
   * written.
   *
   * @throws {TokenDecodeError} the input is neither an id nor a token; nothing was sent.
   * @throws {VerificationNotFoundError} 404, {@link VerificationResultExpiredError} 410,
   *   {@link VerificationNotFinishedError} 423, {@link FetchLimitReachedError} 429.
   * @example
   * const result = await client.botCheck.getResult(token);
   * if (result.verificationPassed && result.score < 0.5) accept();
   */
  async getResult(
    verificationIdOrToken: string,
    options: GetResultOptions = {},
  ): Promise<VerificationResult> {
    const verificationId = resolveVerificationId(verificationIdOrToken);
    return fetchResult(
      this.http,
      'current',
      {
        path: path`/captcha/v2/verifications/${verificationId}/results`,
        auth: { scheme: 'bearer', key: this.key() },
      },
      options,
      (data) => parseResponse(VerificationResult, data, 'bot-check result'),
    );
  }

  /**
   * For backends: decode, fetch, evaluate in one call; never throws for service errors. Fails
   * closed (reject) unless `failOpen` is set, and then only for an unreachable service or 5xx.
   * Concurrent and repeated calls (60 s) with the same id share one request and one answer.
   *
   * @example
   * const { decision } = await client.botCheck.verify(extractToken(body));
   * if (decision !== 'accept') return reply(403);
   */
  verify(
    tokenOrId: string | null | undefined,
    options: VerifyOptions = {},
  ): Promise<VerifyOutcome<VerificationResult>> {
    return runVerify(this.cache, (id, o) => this.getResult(id, o), tokenOrId, options);
  }

  /** Forgets the answers `verify` keeps for repeated calls. */
  clearVerifyCache(): void {
    this.cache.clear();
  }
}
