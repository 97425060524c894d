import { InternalServerError } from '../core/errors/api-error.js';
import { ConnectionError } from '../core/errors/connection-error.js';
import { TimeoutError } from '../core/errors/timeout-error.js';
import type { RequestOptions } from '../core/http.js';
import type { AnswerCache, Settled } from './answer-cache.js';
import {
  type BindableResult,
  type BindingOptions,
  bindingFailures,
  validateBinding,
  withBinding,
} from './binding.js';
import { dummyOutcomeOf } from './dev-outcomes.js';
import { FetchLimitReachedError } from './errors.js';
import {
  DEFAULT_POLICY,
  type EvaluableResult,
  type Evaluation,
  type EvaluationPolicy,
  evaluateValidPolicy,
  validatePolicy,
} from './evaluate.js';
import type { WaitWhileNotFinished } from './fetch-result.js';
import { resolveVerificationId } from './token.js';

/** Options of `verify`. */
export interface VerifyOptions extends RequestOptions, BindingOptions {
  /** How the result becomes a decision. Default `{ kind: 'threshold', threshold: 0.5 }`. */
  policy?: EvaluationPolicy;
  /**
   * Accept when the service is unreachable, times out or answers 5xx. Default false (fail closed:
   * reject). Never applies to 403, 404, 410, 429, a replay or a malformed token.
   */
  failOpen?: boolean;
  /** Keep asking while the verification is not finished (423). Default: no waiting. */
  waitWhileNotFinished?: WaitWhileNotFinished;
  /**
   * What a second call with a verification id this client already answered (or is answering)
   * gets. `reject` (default): a reject with reason `REPLAYED` and no request, the same answer a
   * second process gets from the service (429), so one solved captcha admits one request.
   * `shareFirstAnswer`: for idempotent handlers (a double-clicked submit), the first call's
   * answer, re-evaluated with this call's policy and binding, marked `replayed` and `shared`.
   */
  onReplay?: 'reject' | 'shareFirstAnswer';
}

/** What `verify` returns; it never throws for service errors. */
export interface VerifyOutcome<R> extends Evaluation {
  /** The id that was checked; absent when the token could not be decoded. */
  verificationId?: string;
  /** The fetched result, when there is one. */
  result?: R;
  /** Why no result is available (token, service or network error). */
  error?: unknown;
  /** true when this client had already answered, or was answering, this verification id. */
  replayed: boolean;
  /** true when the answer is another call's (`onReplay: 'shareFirstAnswer'`); no request was made. */
  shared: boolean;
}

function isUnreachable(error: unknown): boolean {
  return (
    error instanceof ConnectionError || error instanceof TimeoutError || error instanceof InternalServerError
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Marks = Pick<VerifyOutcome<unknown>, 'verificationId' | 'replayed' | 'shared'>;

/** Decision for a failed fetch: reject, or accept under `failOpen` when the service was unreachable. */
function onFailure<R>(error: unknown, failOpen: boolean, marks: Marks): VerifyOutcome<R> {
  if (error instanceof FetchLimitReachedError && error.api === 'current') {
    // 429: another process (or an earlier run) fetched this result already.
    return {
      decision: 'reject',
      reasons: [
        { code: 'REPLAYED', message: `the service says the result was already fetched: ${message(error)}` },
      ],
      error,
      ...marks,
    };
  }
  if (!isUnreachable(error)) {
    return {
      decision: 'reject',
      reasons: [{ code: 'SERVICE_ERROR', message: message(error) }],
      error,
      ...marks,
    };
  }
  const unavailable = { code: 'SERVICE_UNAVAILABLE' as const, message: message(error) };
  return failOpen
    ? {
        decision: 'accept',
        reasons: [unavailable, { code: 'FAIL_OPEN', message: 'accepted because failOpen is set' }],
        error,
        ...marks,
      }
    : { decision: 'reject', reasons: [unavailable], error, ...marks };
}

/** A fetch outside the answer cache, shaped like a first claim. */
function unremembered<R>(load: () => Promise<R>): { value: Promise<Settled<R>>; first: true } {
  const value = Promise.resolve()
    .then(load)
    .then(
      (result): Settled<R> => ({ ok: true, result }),
      (error: unknown): Settled<R> => ({ ok: false, error }),
    );
  return { value, first: true };
}

/**
 * Decode, fetch (once per id: see {@link AnswerCache}), evaluate, check the binding. Used by
 * `client.botCheck.verify` and `client.legacyBotCheck.verify`.
 */
export async function runVerify<R extends EvaluableResult & BindableResult, O extends VerifyOptions>(
  cache: AnswerCache<R>,
  now: () => number,
  fetch: (verificationId: string, options: O) => Promise<R>,
  tokenOrId: string | null | undefined,
  options: O,
): Promise<VerifyOutcome<R>> {
  const policy = options.policy ?? DEFAULT_POLICY;
  if (policy !== DEFAULT_POLICY) validatePolicy(policy);
  validateBinding(options);
  let verificationId: string;
  try {
    verificationId = resolveVerificationId(tokenOrId as string);
  } catch (error) {
    return {
      decision: 'reject',
      reasons: [{ code: 'TOKEN_INVALID', message: `invalid verification token: ${message(error)}` }],
      error,
      replayed: false,
      shared: false,
    };
  }
  // Dummy ids are never remembered: a dev server answers them the same on every fetch, so tests
  // can replay recorded form posts; the real service answers them 404, so this admits nothing.
  const claim = dummyOutcomeOf(verificationId)
    ? unremembered(() => fetch(verificationId, options))
    : cache.claim(verificationId, () => fetch(verificationId, options));
  const first = claim.first;
  // A rejected replay never reads `claim.value`, which builds a promise when read.
  if (!first && options.onReplay !== 'shareFirstAnswer') {
    return {
      decision: 'reject',
      reasons: [
        {
          code: 'REPLAYED',
          message:
            'this verification was already answered by this client; a solved captcha admits one request',
        },
      ],
      verificationId,
      replayed: true,
      shared: false,
    };
  }
  const settled = await claim.value;
  if (!settled.ok) {
    const marks = { verificationId, replayed: !first, shared: !first };
    return onFailure(settled.error, options.failOpen === true, marks);
  }
  const { decision, reasons } = withBinding(
    evaluateValidPolicy(settled.result, policy),
    bindingFailures(settled.result, verificationId, options, now),
  );
  // Built field by field: this runs once per verify, on the hot path of a form submit.
  return { decision, reasons, result: settled.result, verificationId, replayed: !first, shared: !first };
}
