import * as z from 'zod/mini';
import { NotFoundError, SvcError } from '../core/errors/error-classes.js';
import type { HttpClient } from '../core/http.js';
import { lazySchema } from '../core/lazy-schema.js';
import { RETRY_UNSENT_ONLY } from '../core/retry.js';
import { parseResponse } from '../core/schema.js';
import type { DevOutcome } from './dev-outcomes.js';

/** What a dev server answers for a new verification (`POST /__admin/verifications`). */
export const DevVerificationSchema = lazySchema(() =>
  z.looseObject({
    verificationId: z.string(),
    /** Base64 JSON `{verificationId, apiEndpoint, encryptedAccessToken}`, as the widget yields it. */
    token: z.string(),
    /** Deprecated access token for the legacy `?accessToken=` parameter. */
    accessToken: z.string(),
  }),
);
/** What a dev server answers for a new verification (`POST /__admin/verifications`). */
export type DevVerification = z.infer<ReturnType<typeof DevVerificationSchema>>;

/** Options of {@link createDevVerification}. */
export interface CreateDevVerificationOptions {
  /** The outcome its result gives (one of `DEV_OUTCOMES`; docs/reference-server.md describes each). Default `pass`. */
  outcome?: DevOutcome;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** The base URL is not a dev server (it has no admin API). Code `config`. */
export class DevServerRequiredError extends SvcError {
  override name = 'DevServerRequiredError';

  constructor(baseUrl: string, options?: { cause?: unknown }) {
    super(
      `${baseUrl} has no dev-server admin API (POST /__admin/verifications answered 404): fresh tokens come only from \`svc serve\`, --sandbox or createReferenceServer(), never from the real service`,
      'config',
      options,
    );
  }
}

/** What {@link createDevVerification} uses of a client: its HTTP pipeline (an `SvcClient` has it). */
export interface DevServerClient {
  readonly http: HttpClient;
}

/**
 * Creates a fresh verification with the given outcome on a dev server (`svc serve`, `--sandbox`,
 * `createReferenceServer()`) through its admin API, as the stand-in widget does, and returns its
 * id and token: a token the bot-check APIs answer once, like a real one. Tests and curl use it
 * to get tokens without a browser. No key is sent; the admin API is served on loopback only.
 *
 * @throws {DevServerRequiredError} the base URL is not a dev server (404).
 * @example
 * const { token } = await createDevVerification(client, { outcome: 'bot' });
 * (await client.botCheck.verify(token)).decision; // 'reject'
 */
export async function createDevVerification(
  client: DevServerClient,
  options: CreateDevVerificationOptions = {},
): Promise<DevVerification> {
  try {
    const { data } = await client.http.call({
      method: 'POST',
      path: '/__admin/verifications',
      body: { outcome: options.outcome ?? 'pass' },
      // A retry after the server answered would mint a second verification: harmless, but not asked for.
      retry: RETRY_UNSENT_ONLY,
      options: { ...(options.signal && { signal: options.signal }) },
    });
    return parseResponse(DevVerificationSchema(), data, 'dev-server verification');
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new DevServerRequiredError(client.http.settings.baseUrl.origin, { cause: error });
    throw error;
  }
}
