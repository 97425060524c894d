import type { RequestOptions } from '../core/http.js';
import type { AnswerCache, Retention, Settled } from './answer-cache.js';
import {
  type BindableResult,
  type BindingOptions,
  bindingFailures,
  validateBinding,
  withBinding,
} from './binding.js';
import { isDummyVerificationId } from './dummy-id.js';
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
  evaluateValidPolicy,
  validatePolicy,
} from './evaluate.js';
import type { WaitWhileNotFinished } from './fetch-result.js';
import { isOutage } from './outage.js';
import { resolveVerificationId } from './token.js';

/** Options of `verify`. */
export interface VerifyOptions extends RequestOptions, BindingOptions {
  /** How the result becomes a decision. Default `{ kind: 'threshold', threshold: 0.5 }`. */
  policy?: EvaluationPolicy;
  /**
   * Accept when the service is out: the connection is refused, reset or cut, the fetch times out,
   * or the service answers 5xx. Default false (fail closed: reject). Never applies to any other
   * status (403, 404, 410, 423, 429), a malformed answer, a local error (a runtime permission, an
   * invalid request: `TransportError`; a transport that cannot load: code `config`) or a malformed token; and
   * never to an id this client was asked about before, outage or not: a repeat during an outage
   * is rejected as `REPLAYED`, and an id accepted this way stays answered (see `onReplay`).
   */
  failOpen?: boolean;
  /** Keep asking while the verification is not finished (423). Default: no waiting. */
  waitWhileNotFinished?: WaitWhileNotFinished;
  /**
   * What a second call with a verification id this client already answered (or is answering)
   * gets. `reject` (default): a reject with reason `REPLAYED` and no request, the same answer a
   * second process gets from the service (429), so one solved captcha admits one request.
   * `shareFirstAnswer`: for idempotent handlers (a double-clicked submit), the first call's
   * answer, re-evaluated with this call's policy and binding, marked `replayed` and `shared`
   * (a first answer that was an outage is never shared: the replay is `REPLAYED`).
   *
   * Ids compare case-insensitively. What is remembered, per client and API:
   * - ids answered accept or challenge (`failOpen` accepts included), until the result's validity
   *   ends (at most a day; 15 minutes when the result does not say), at most
   *   `VERIFY_CACHE_MAX_ENTRIES` (10,000); only another such answer pushes the oldest out;
   * - every other id (rejected, 404, 410, 429, failed), for 15 minutes, at most
   *   `VERIFY_CACHE_MAX_UNANSWERED` (10,000) apart from those, so a flood of random ids never
   *   pushes out an answer; memory stays bounded (about 1 KB an id). An id whose fetch failed
   *   (outage, 423, local error) is asked again on its next call, but never accepted by `failOpen`;
   * - ids being fetched, until their fetch ends.
   * Forgetting an id is safe where the service allows one fetch per result (the default): the
   * replay reaches the service, which refuses it (429, `REPLAYED`).
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

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Marks = Pick<VerifyOutcome<unknown>, 'verificationId' | 'replayed' | 'shared'>;

/**
 * Decision for a failed fetch: reject, or accept under `failOpen` when the service is out. A
 * `repeat` (the id was asked about before, or this is a replay) is never accepted: during an
 * outage it is `REPLAYED`.
 */
function onFailure<R>(error: unknown, failOpen: boolean, repeat: boolean, marks: Marks): VerifyOutcome<R> {
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
  if (!isOutage(error)) {
    return {
      decision: 'reject',
      reasons: [{ code: 'SERVICE_ERROR', message: message(error) }],
      error,
      ...marks,
    };
  }
  const unavailable = { code: 'SERVICE_UNAVAILABLE' as const, message: message(error) };
  if (repeat) {
    const replayed = {
      code: 'REPLAYED' as const,
      message: 'this verification was presented to this client before; failOpen never applies to a repeat',
    };
    return { decision: 'reject', reasons: [replayed, unavailable], error, ...marks, replayed: true };
  }
  return failOpen
    ? {
        decision: 'accept',
        reasons: [unavailable, { code: 'FAIL_OPEN', message: 'accepted because failOpen is set' }],
        error,
        ...marks,
      }
    : { decision: 'reject', reasons: [unavailable], error, ...marks };
}

/** A fetch outside the answer cache, shaped like a first claim of an id never seen. */
function unremembered<R>(load: () => Promise<R>): { value: Promise<Settled<R>>; first: true; seen: false } {
  const value = Promise.resolve()
    .then(load)
    .then(
      (result): Settled<R> => ({ ok: true, result }),
      (error: unknown): Settled<R> => ({ ok: false, error }),
    );
  return { value, first: true, seen: false };
}

/**
 * Where a failed fetch's answer is kept: final statuses need no second fetch; an outage this
 * call accepts (`failOpen`) is an answer; anything else may be asked again.
 */
function failureRetention(error: unknown, failOpenApplies: boolean): Retention {
  if (
    error instanceof VerificationNotFoundError ||
    error instanceof VerificationResultExpiredError ||
    error instanceof FetchLimitReachedError
  ) {
    return 'unanswered';
  }
  return failOpenApplies && isOutage(error) ? 'answered' : 'retry';
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
  // Dummy ids (dev-server fixtures) are never remembered: a dev server answers them the same on
  // every fetch, so tests can replay recorded form posts; the real service answers them 404. So
  // that this admits nothing, they never fail open either: a repeat during an outage is refused.
  const dummy = isDummyVerificationId(verificationId);
  const failOpen = options.failOpen === true && !dummy;
  // The first call's evaluation, made once when its fetch settles: it also says where the id is kept.
  let evaluation: Evaluation | undefined;
  let seen = false;
  const retain = (settled: Settled<R>): Retention => {
    if (!settled.ok) return failureRetention(settled.error, failOpen && !seen);
    evaluation = withBinding(
      evaluateValidPolicy(settled.result, policy),
      bindingFailures(settled.result, verificationId, options, now),
    );
    return evaluation.decision === 'reject' ? 'unanswered' : 'answered';
  };
  const claim = dummy
    ? unremembered(() => fetch(verificationId, options))
    : cache.claim(verificationId, () => fetch(verificationId, options), retain);
  const first = claim.first;
  seen = claim.seen;
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
    return onFailure(settled.error, failOpen, !first || seen, marks);
  }
  const { decision, reasons } =
    first && evaluation
      ? evaluation
      : withBinding(
          evaluateValidPolicy(settled.result, policy),
          bindingFailures(settled.result, verificationId, options, now),
        );
  // Built field by field: this runs once per verify, on the hot path of a form submit.
  return { decision, reasons, result: settled.result, verificationId, replayed: !first, shared: !first };
}
