import { InternalServerError } from '../core/errors/api-error.js';
import { ConnectionError } from '../core/errors/connection-error.js';
import { TimeoutError } from '../core/errors/timeout-error.js';
import type { RequestOptions } from '../core/http.js';
import type { BotCheckClient } from './current-client.js';
import {
  FetchLimitReachedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from './errors.js';
import {
  DEFAULT_POLICY,
  type EvaluableResult,
  type Evaluation,
  type EvaluationPolicy,
  evaluate,
  validatePolicy,
} from './evaluate.js';
import type { WaitWhileNotFinished } from './fetch-result.js';
import type { LegacyAssessmentResult, LegacyBotCheckClient } from './legacy-client.js';
import type { VerificationResult } from './schemas.js';
import { resolveVerificationId } from './token.js';

/** Options of `verify`. */
export interface VerifyOptions extends RequestOptions {
  /** How the result becomes a decision. Default `{ kind: 'threshold', threshold: 0.5 }`. */
  policy?: EvaluationPolicy;
  /**
   * Accept when the service is unreachable, times out or answers 5xx. Default false (fail closed:
   * reject). Never applies to 403, 404, 410, 429 or a malformed token.
   */
  failOpen?: boolean;
  /** Keep asking while the verification is not finished (423). Default: no waiting. */
  waitWhileNotFinished?: WaitWhileNotFinished;
}

/** What `verify` returns; it never throws for service errors. */
export interface VerifyOutcome<R> extends Evaluation {
  /** The id that was checked; absent when the token could not be decoded. */
  verificationId?: string;
  /** The fetched result, when there is one. */
  result?: R;
  /** Why no result is available (token, service or network error). */
  error?: unknown;
  /** true when another call in this process made the request (in flight or cached). */
  shared: boolean;
}

type Settled<R> = { ok: true; result: R } | { ok: false; error: unknown };

/** How long a verify answer is reused, ms. */
export const VERIFY_CACHE_TTL_MS = 60_000;
/** Most verify answers kept at once. */
export const VERIFY_CACHE_MAX_ENTRIES = 1000;

// Answers that another fetch could not change. Transient failures (423, network, 5xx) are shared
// while in flight but not kept.
function isFinal(settled: Settled<unknown>): boolean {
  return (
    settled.ok ||
    settled.error instanceof VerificationNotFoundError ||
    settled.error instanceof VerificationResultExpiredError ||
    settled.error instanceof FetchLimitReachedError
  );
}

/**
 * Single flight plus a short, bounded cache, keyed by verification id. A result can be fetched
 * once, so a second request for the same id would get 429/410 and turn a pass into a reject.
 */
export class VerifyCache<R> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<Settled<R>> }>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = VERIFY_CACHE_TTL_MS,
    private readonly maxEntries = VERIFY_CACHE_MAX_ENTRIES,
  ) {}

  /** The shared answer for `id`, loading it when there is none. */
  get(id: string, load: () => Promise<R>): { value: Promise<Settled<R>>; shared: boolean } {
    const found = this.entries.get(id);
    if (found && found.expiresAt > this.now()) return { value: found.value, shared: true };
    if (found) this.entries.delete(id);
    this.makeRoom();
    const value = (async () => load())().then(
      (result): Settled<R> => ({ ok: true, result }),
      (error: unknown): Settled<R> => ({ ok: false, error }),
    );
    const entry = { expiresAt: Number.POSITIVE_INFINITY, value };
    void value.then((settled) => {
      if (this.entries.get(id) !== entry) return;
      if (isFinal(settled)) entry.expiresAt = this.now() + this.ttlMs;
      else this.entries.delete(id);
    });
    this.entries.set(id, entry);
    return { value, shared: false };
  }

  /** Forgets every answer. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private makeRoom(): void {
    if (this.entries.size < this.maxEntries) return;
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
    // Map order is insertion order: drop the oldest until there is room.
    for (const id of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(id);
    }
  }
}

function isUnreachable(error: unknown): boolean {
  return (
    error instanceof ConnectionError || error instanceof TimeoutError || error instanceof InternalServerError
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Decision for a failed fetch: reject, or accept under `failOpen` when the service was unreachable. */
function onFailure<R>(
  error: unknown,
  failOpen: boolean,
  verificationId: string,
  shared: boolean,
): VerifyOutcome<R> {
  if (!isUnreachable(error)) {
    return {
      decision: 'reject',
      reasons: [{ code: 'SERVICE_ERROR', message: message(error) }],
      verificationId,
      error,
      shared,
    };
  }
  const unavailable = { code: 'SERVICE_UNAVAILABLE' as const, message: message(error) };
  return failOpen
    ? {
        decision: 'accept',
        reasons: [unavailable, { code: 'FAIL_OPEN', message: 'accepted because failOpen is set' }],
        verificationId,
        error,
        shared,
      }
    : { decision: 'reject', reasons: [unavailable], verificationId, error, shared };
}

/**
 * Decode, fetch (shared through `cache`), evaluate. Used by `client.botCheck.verify` and
 * `client.legacyBotCheck.verify`.
 */
export async function runVerify<R extends EvaluableResult, O extends VerifyOptions>(
  cache: VerifyCache<R>,
  fetch: (verificationId: string, options: O) => Promise<R>,
  tokenOrId: string | null | undefined,
  options: O,
): Promise<VerifyOutcome<R>> {
  const policy = options.policy ?? DEFAULT_POLICY;
  validatePolicy(policy);
  let verificationId: string;
  try {
    verificationId = resolveVerificationId(tokenOrId as string);
  } catch (error) {
    return {
      decision: 'reject',
      reasons: [{ code: 'TOKEN_INVALID', message: `invalid verification token: ${message(error)}` }],
      error,
      shared: false,
    };
  }
  const { value, shared } = cache.get(verificationId, () => fetch(verificationId, options));
  const settled = await value;
  if (!settled.ok) return onFailure(settled.error, options.failOpen === true, verificationId, shared);
  return { ...evaluate(settled.result, policy), verificationId, result: settled.result, shared };
}

/** Options of the standalone {@link verify}. */
export interface VerifyWithClientOptions extends VerifyOptions {
  /** Which bot-check API to ask. Default `current`. */
  api?: 'current' | 'legacy';
  /** @deprecated Legacy API only: access token sent as query parameter instead of the key header. */
  accessToken?: string;
}

/**
 * `client.botCheck.verify` (or `client.legacyBotCheck.verify` with `api: 'legacy'`) as a function.
 *
 * @example
 * const { decision, reasons } = await verify(client, extractToken(req.body), { policy: { kind: 'multiStage' } });
 */
export function verify(
  client: { botCheck: BotCheckClient; legacyBotCheck: LegacyBotCheckClient },
  tokenOrId: string | null | undefined,
  options: VerifyWithClientOptions = {},
): Promise<VerifyOutcome<VerificationResult | LegacyAssessmentResult>> {
  const { api, ...rest } = options;
  return api === 'legacy'
    ? client.legacyBotCheck.verify(tokenOrId, rest)
    : client.botCheck.verify(tokenOrId, rest);
}
