import { LocalValidationError } from '../core/errors/error-classes.js';
import type { HttpClient } from '../core/http.js';
import { path } from '../core/path.js';
import { AnswerCache, VERIFY_CACHE_TTL_MS } from './answer-cache.js';
import { parseLegacyAssessment } from './answer-parser.js';
import type { BotCheckClientOptions, BotCheckPipeline } from './client-options.js';
import { fetchResult, type GetResultOptions } from './fetch-result.js';
import { parseLegacyTimestamp } from './legacy-time.js';
import { botCheckPipeline } from './pipeline.js';
import { runVerify, type VerifyOptions, type VerifyOutcome } from './run-verify.js';
import type { LegacyAssessment } from './schemas.js';
import { assertWellFormed, resolveVerificationId } from './token.js';
import { normalizeLegacyReason } from './vocabulary.js';

/** Options of `getAssessment`. */
export interface GetAssessmentOptions extends GetResultOptions {
  /**
   * @deprecated For the oldest widget versions only: sends this access token as the `accessToken`
   * query parameter instead of the `svc-authorization` header. The server answers 400 when its
   * format is wrong.
   */
  accessToken?: string;
}

/** A legacy assessment with its zone-less timestamps also parsed as UTC. */
export type LegacyAssessmentResult = LegacyAssessment & {
  /** `creationTimestamp`, `releaseTimestamp`, `retrievalTimestamp` read as UTC; undefined when absent. */
  parsedTimestamps: {
    creationTimestamp: Date | undefined;
    releaseTimestamp: Date | undefined;
    retrievalTimestamp: Date | undefined;
  };
};

/**
 * The legacy bot-check result API (`/verifications/{id}/assessments`) of v1/v2 widget clients,
 * authenticated with the captcha's API key (or deprecated secret key) in `svc-authorization`.
 */
export class LegacyBotCheckClient {
  private readonly cache: AnswerCache<LegacyAssessmentResult>;

  private readonly http: HttpClient;
  private readonly key: () => string | undefined;
  /** Whether the pipeline is this client's own (standalone) rather than an `SvcClient`'s. */
  private readonly owned: boolean;

  /**
   * A standalone client from `{ baseUrl, apiKey, timeoutMs, fetch? }` (see
   * {@link BotCheckClientOptions}; it sends with the runtime's `fetch`), or the one an `SvcClient`
   * builds over its own pipeline (`client.legacyBotCheck`).
   *
   * @throws {SvcError} code `config` for a missing or bad `baseUrl`, or no `fetch` in this runtime.
   * @example
   * const botCheck = new LegacyBotCheckClient({ baseUrl: 'https://api.example.com', apiKey: env.SVC_API_KEY });
   */
  constructor(options: BotCheckClientOptions | BotCheckPipeline) {
    const { http, key } = botCheckPipeline(options);
    this.http = http;
    this.key = key;
    this.owned = http !== (options as Partial<BotCheckPipeline>).http;
    const now = () => http.settings.now();
    // The legacy result has no expiry: it is retrievable for 15 minutes after it was released.
    this.cache = new AnswerCache(now, (result) => {
      const released = result.parsedTimestamps.releaseTimestamp?.getTime();
      return released === undefined ? undefined : Math.min(released, now()) + VERIFY_CACHE_TTL_MS;
    });
  }

  /**
   * Fetches the assessment of a verification by id or token. The token's `apiEndpoint` is
   * ignored. The reason `ONLY_PROOF_OF_WORKS` is returned as `ONLY_PROOF_OF_WORK`.
   *
   * @throws {TokenDecodeError} the input is neither an id nor a token; nothing was sent.
   * @throws {FetchLimitReachedError} 410: already retrieved or expired; the captcha must be solved again.
   * @throws {VerificationNotFoundError} 404, {@link VerificationNotFinishedError} 423,
   *   `BadRequestError` 400, `PermissionDeniedError` 403, `UnprocessableEntityError` 422 (mode
   *   mismatch), `InternalServerError` 500.
   */
  async getAssessment(
    verificationIdOrToken: string,
    options: GetAssessmentOptions = {},
  ): Promise<LegacyAssessmentResult> {
    const verificationId = resolveVerificationId(verificationIdOrToken);
    const { accessToken } = options;
    assertWellFormed(accessToken, 'accessToken');
    if (accessToken !== undefined && accessToken.trim() === '') {
      throw new LocalValidationError([{ path: 'accessToken', message: 'must not be empty' }], 'options');
    }
    const data = await fetchResult(
      this.http,
      'legacy',
      {
        path: path`/verifications/${verificationId}/assessments`,
        // The legacy API requires the header on this body-less GET, with a key or an access token.
        jsonContentType: true,
        ...(accessToken === undefined
          ? { auth: { scheme: 'svc-authorization', key: this.key() } }
          : { query: { accessToken } }),
      },
      options,
      (body) => body,
    );
    const raw = parseLegacyAssessment(data);
    return {
      ...raw,
      ...(raw.reason !== undefined && { reason: normalizeLegacyReason(raw.reason) }),
      parsedTimestamps: {
        creationTimestamp: parseLegacyTimestamp(raw.creationTimestamp),
        releaseTimestamp: parseLegacyTimestamp(raw.releaseTimestamp),
        retrievalTimestamp: parseLegacyTimestamp(raw.retrievalTimestamp),
      },
    };
  }

  /**
   * For backends on the legacy API: decode, fetch, evaluate; never throws for service errors.
   * Same rules as `client.botCheck.verify` (fail closed, one answer per id, binding checks).
   */
  verify(
    tokenOrId: string | null | undefined,
    options: VerifyOptions & Pick<GetAssessmentOptions, 'accessToken'> = {},
  ): Promise<VerifyOutcome<LegacyAssessmentResult>> {
    return runVerify(
      this.cache,
      () => this.http.settings.now(),
      (id, o) => this.getAssessment(id, o),
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
