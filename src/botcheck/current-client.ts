import type { HttpClient } from '../core/http.js';
import { path } from '../core/path.js';
import { AnswerCache } from './answer-cache.js';
import { parseVerificationResult } from './answer-parser.js';
import type { BotCheckClientOptions, BotCheckPipeline } from './client-options.js';
import { fetchResult, type GetResultOptions } from './fetch-result.js';
import { botCheckPipeline } from './pipeline.js';
import { runVerify, type VerifyOptions, type VerifyOutcome } from './run-verify.js';
import type { VerificationResult } from './schemas.js';
import { resolveVerificationId } from './token.js';

/** Longest a verify answer is remembered, whatever `resultExpiresAt` says: one day. */
const MAX_REMEMBER_MS = 24 * 60 * 60_000;

/** The current bot-check result API (`/captcha/v2`), authenticated with a project key as Bearer. */
export class BotCheckClient {
  private readonly cache: AnswerCache<VerificationResult>;

  private readonly http: HttpClient;
  private readonly key: () => string | undefined;
  /** Whether the pipeline is this client's own (standalone) rather than an `SvcClient`'s. */
  private readonly owned: boolean;

  /**
   * A standalone client from `{ baseUrl, apiKey, timeoutMs, fetch? }` (see
   * {@link BotCheckClientOptions}; it sends with the runtime's `fetch`), or the one an `SvcClient`
   * builds over its own pipeline (`client.botCheck`).
   *
   * @throws {SvcError} code `config` for a missing or bad `baseUrl`, or no `fetch` in this runtime.
   * @example
   * const botCheck = new BotCheckClient({ baseUrl: 'https://api.example.com', apiKey: env.SVC_API_KEY });
   */
  constructor(options: BotCheckClientOptions | BotCheckPipeline) {
    const { http, key } = botCheckPipeline(options);
    this.http = http;
    this.key = key;
    this.owned = http !== (options as Partial<BotCheckPipeline>).http;
    const now = () => http.settings.now();
    // Remember an answered id while the service would still hold the result.
    this.cache = new AnswerCache(now, (result) => {
      const expires = Date.parse(result.resultExpiresAt ?? '');
      return Number.isFinite(expires) ? Math.min(expires, now() + MAX_REMEMBER_MS) : undefined;
    });
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
  getResult(verificationIdOrToken: string, options: GetResultOptions = {}): Promise<VerificationResult> {
    // Not an async function: the fetch's own promise is returned, without two more microtasks.
    let verificationId: string;
    try {
      verificationId = resolveVerificationId(verificationIdOrToken);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.fetchById(verificationId, options);
  }

  /** The fetch behind `getResult` and `verify`, for an id already resolved. */
  private async fetchById(verificationId: string, options: GetResultOptions): Promise<VerificationResult> {
    const data = await fetchResult(
      this.http,
      'current',
      {
        path: path`/captcha/v2/verifications/${verificationId}/results`,
        auth: { scheme: 'bearer', key: this.key() },
      },
      options,
      (body) => body,
    );
    return parseVerificationResult(data);
  }

  /**
   * For backends: decode, fetch, evaluate and check the binding options in one call; never
   * throws for service errors. Fails closed (reject) unless `failOpen` is set, and then only for
   * an unreachable service or 5xx. Each verification id is answered once per client: a repeated
   * or concurrent call with the same id is a replay, rejected (`REPLAYED`) without a request
   * unless `onReplay: 'shareFirstAnswer'`. The ids are kept per client, not per process: two
   * clients (like two processes) each fetch, and the service refuses the second fetch (429,
   * also `REPLAYED`).
   *
   * @example
   * const { decision } = await client.botCheck.verify(extractToken(body), { maxAgeMs: 300_000 });
   * if (decision !== 'accept') return reply(403);
   */
  verify(
    tokenOrId: string | null | undefined,
    options: VerifyOptions = {},
  ): Promise<VerifyOutcome<VerificationResult>> {
    return runVerify(
      this.cache,
      () => this.http.settings.now(),
      // runVerify resolved the token already: fetch by id, without decoding a second time.
      (id, o) => this.fetchById(id, o),
      tokenOrId,
      options,
    );
  }

  /** Forgets the verification ids `verify` answered (their replays then reach the service). */
  clearVerifyCache(): void {
    this.cache.clear();
  }

  /**
   * Releases the connections of a standalone client's transport (a `fetch` transport holds none).
   * Does nothing for the client of an `SvcClient`: close the `SvcClient` instead.
   */
  async close(): Promise<void> {
    if (this.owned) await this.http.settings.transport.close?.();
  }
}
