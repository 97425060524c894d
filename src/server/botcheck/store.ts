import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { DEV_OUTCOMES } from '../../botcheck/dev-outcomes.js';
import type { DevVerification } from '../../botcheck/dev-verification.js';
import {
  DECISION_ACTIONS,
  DECISION_TYPES,
  LEGACY_REASON_ALIASES,
  LEGACY_REASONS,
} from '../../botcheck/schemas.js';
import type { VerificationEvent } from '../events/types.js';
import { DEMO } from '../fixtures.js';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

/** Result validity when the verification does not set one: 15 minutes after it finished. */
export const DEFAULT_VALIDITY_MS = 15 * 60_000;

/** Mode configured for each captcha; a verification made in another mode gets 422 on the legacy API. */
export const CAPTCHA_MODES: ReadonlyMap<string, string> = new Map([[DEMO.captchaId, 'STANDARD']]);

/** The deprecated endpoint written into tokens; never contacted by a correct client. */
export const TOKEN_API_ENDPOINT = 'https://legacy-api.svc.invalid/';

/** Format of the deprecated access token (legacy `?accessToken=`). */
export const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

/** Body of `POST /__admin/verifications`. */
export const CreateVerificationBody = z.strictObject({
  /**
   * Presets the other fields for one dev outcome (`src/server/botcheck/outcomes.ts`); fields
   * given explicitly win. Kept on the verification for the console.
   */
  outcome: z.optional(z.enum(DEV_OUTCOMES)),
  /** Default true; an unfinished verification answers 423 until finished. */
  finished: z._default(z.boolean(), true),
  passed: z._default(z.boolean(), true),
  /** Default 0.1 when passed (0 in minimal-data mode), 1 when not. */
  score: z.optional(z.number().check(z.gte(0)).check(z.lte(1))),
  /** Legacy reason; `ONLY_PROOF_OF_WORKS` is kept as given, to exercise the alias. */
  reason: z.optional(z.enum([...LEGACY_REASONS, ...Object.keys(LEGACY_REASON_ALIASES)])),
  decisionType: z._default(z.enum(DECISION_TYPES), 'STANDARD'),
  decisionAction: z._default(z.enum(DECISION_ACTIONS), 'NO_ACTION'),
  /** Default: true when decisionType is FAILOVER. */
  gatewayFailoverActive: z.optional(z.boolean()),
  minimalDataMode: z._default(z.boolean(), false),
  maxFetches: z._default(z.number().check(z.int()).check(z.gte(1)).check(z.lte(1000)), 1),
  validityMs: z._default(z.number().check(z.int()).check(z.gt(0)), DEFAULT_VALIDITY_MS),
  /** Mode of the widget component; the captcha is configured for STANDARD. 1 to 64 characters. */
  mode: z._default(z.string().check(z.minLength(1)).check(z.maxLength(64)), 'STANDARD'),
  /** Backdates start and finish by this many ms (default 0); past `validityMs` the result answers 410. */
  finishedAgoMs: z._default(
    z
      .number()
      .check(z.int())
      .check(z.gte(0))
      .check(z.lte(366 * 24 * 3_600_000)),
    0,
  ),
});
export type CreateVerificationInput = z.input<typeof CreateVerificationBody>;

/** What the admin API returns for a new verification (the client's schema of it: `DevVerification`). */
export type CreatedVerification = Pick<DevVerification, 'verificationId' | 'token' | 'accessToken'>;

/** One verification as the server keeps it. */
export interface StoredVerification {
  verificationId: string;
  captchaId: string;
  accessToken: string;
  settings: z.output<typeof CreateVerificationBody>;
  score: number;
  reason: string;
  gatewayFailoverActive: boolean;
  startedAt: number;
  finishedAt: number | undefined;
  fetches: number;
  firstFetchedAt: number | undefined;
  lastFetchedAt: number | undefined;
}

/**
 * Who asks: a key (owning the verification's captcha), or only the deprecated access token of the
 * verification. A key may also bring an access token, which must then match too.
 */
export type ResultCaller =
  | { by: 'key'; captchaId: string | undefined; accessToken?: string | undefined }
  | { by: 'accessToken'; accessToken: string };

/** Which API asks: they differ in the status of an exhausted fetch count (429 vs 410). */
export type ResultApi = 'current' | 'legacy';

function defaultReason(s: z.output<typeof CreateVerificationBody>): string {
  if (s.decisionType === 'FAILOVER' || s.decisionType === 'FAILOVER_TOLERANCE') return s.decisionType;
  if (!s.passed) return 'CHALLENGES_NOT_SOLVED_CORRECTLY';
  return s.minimalDataMode ? 'ONLY_PROOF_OF_WORK' : 'CALCULATED';
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A verification built from its settings; `finished` ones finished `finishedAgoMs` before `now`. */
export function storedVerification(
  input: z.output<typeof CreateVerificationBody>,
  ids: { verificationId: string; captchaId: string; accessToken: string },
  now: number,
): StoredVerification {
  const finishedAt = now - input.finishedAgoMs;
  return {
    ...ids,
    settings: input,
    score: input.score ?? (input.passed ? (input.minimalDataMode ? 0 : 0.1) : 1),
    reason: input.reason ?? defaultReason(input),
    gatewayFailoverActive: input.gatewayFailoverActive ?? input.decisionType === 'FAILOVER',
    startedAt: input.finished ? finishedAt : now,
    finishedAt: input.finished ? finishedAt : undefined,
    fetches: 0,
    firstFetchedAt: undefined,
    lastFetchedAt: undefined,
  };
}

/** Verifications of the reference server and the availability rules of reference 3.2. */
export class VerificationStore {
  private readonly items = new Map<string, StoredVerification>();

  constructor(private readonly state: ServerState) {
    state.onReset(() => this.items.clear());
  }

  /** Creates a verification of the demo captcha. */
  create(input: z.output<typeof CreateVerificationBody>): CreatedVerification {
    const now = this.state.clock.now();
    const verificationId = randomUUID();
    const accessToken = randomBytes(32).toString('base64url');
    const item = storedVerification(input, { verificationId, captchaId: DEMO.captchaId, accessToken }, now);
    this.items.set(verificationId, item);
    const payload = {
      verificationId,
      apiEndpoint: TOKEN_API_ENDPOINT,
      encryptedAccessToken: randomBytes(48).toString('base64'),
    };
    const token = Buffer.from(JSON.stringify(payload)).toString('base64');
    this.publish(item, 'created', token);
    return { verificationId, token, accessToken };
  }

  /** Tells the console about a verification. */
  private publish(item: StoredVerification, change: VerificationEvent['change'], token?: string): void {
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    this.state.events.publish('verification', {
      verificationId: item.verificationId,
      change,
      outcome: item.settings.outcome ?? 'custom',
      ...(token !== undefined && { token }),
      passed: item.settings.passed,
      score: item.score,
      finishedAt: iso(item.finishedAt),
      expiresAt: iso(item.finishedAt === undefined ? undefined : item.finishedAt + item.settings.validityMs),
      fetches: item.fetches,
      maxFetches: item.settings.maxFetches,
    });
  }

  /** Marks a verification finished (its validity starts now); undefined when unknown. */
  finish(verificationId: string): StoredVerification | undefined {
    // Ids compare case-insensitively, as the service does (stored lower-case, as created).
    const item = this.items.get(verificationId.toLowerCase());
    if (item && item.finishedAt === undefined) {
      item.finishedAt = this.state.clock.now();
      this.publish(item, 'finished');
    }
    return item;
  }

  /**
   * Applies the availability rules and counts the fetch: 404 unknown or not this caller's, 422
   * mode mismatch (legacy), 423 unfinished, 410 expired, then 429 (legacy 410) past the fetch count.
   */
  consume(verificationId: string, caller: ResultCaller, api: ResultApi): StoredVerification {
    const item = this.items.get(verificationId.toLowerCase());
    const owned =
      caller.by === 'accessToken' || (caller.captchaId !== undefined && caller.captchaId === item?.captchaId);
    if (!item || !owned) throw new HttpProblem(404, 'Unknown verificationId');
    if (caller.accessToken !== undefined && !sameSecret(caller.accessToken, item.accessToken)) {
      throw new HttpProblem(403, 'Access token does not match the verification');
    }
    if (api === 'legacy' && item.settings.mode !== CAPTCHA_MODES.get(item.captchaId)) {
      throw new HttpProblem(
        422,
        `Captcha mode ${item.settings.mode} of the widget differs from the mode ${CAPTCHA_MODES.get(item.captchaId)} in the captcha settings`,
      );
    }
    if (item.finishedAt === undefined)
      throw new HttpProblem(423, 'Result not yet released; the verification has not finished');
    const now = this.state.clock.now();
    if (now > item.finishedAt + item.settings.validityMs) {
      throw new HttpProblem(
        410,
        api === 'legacy' ? 'Result expired; the captcha must be solved again' : 'Result expired',
      );
    }
    if (item.fetches >= item.settings.maxFetches) {
      throw api === 'legacy'
        ? new HttpProblem(410, 'Result already retrieved; the captcha must be solved again')
        : new HttpProblem(429, 'Allowed fetch count exceeded; the result was already retrieved');
    }
    item.fetches += 1;
    item.firstFetchedAt ??= now;
    item.lastFetchedAt = now;
    this.publish(item, 'fetched');
    return item;
  }
}
