import { LocalValidationError, type ValidationIssue } from '../core/errors/error-classes.js';
import { normalizeLegacyReason } from './vocabulary.js';

/** What to do with the request that carried the verification. */
/** The decisions an evaluation can reach, from letting the request through to refusing it. */
export const DECISIONS = ['accept', 'challenge', 'reject'] as const;
/** What to do with the request: `accept` it, `challenge` it with an extra check, or `reject` it. */
export type Decision = (typeof DECISIONS)[number];

/**
 * How a result becomes a decision (reference 3.3, "recommended evaluation").
 *
 * - `threshold`: accept when the verification passed and `score < threshold` (default 0.5, strictly below).
 * - `multiStage`: reject when not passed or `score >= rejectAt` (default 0.8); challenge (e.g. a
 *   second factor) when `score >= challengeAt` (default 0.4); else accept.
 * - `proofOfWorkOnly`: only `verificationPassed` counts.
 *
 * For current-API results, `decisionAction: BLOCK` rejects under every policy, and a result
 * synthesized by the failover gateway (`gatewayFailoverActive`) gets `onGatewayFailover`
 * (default `challenge`). Default policy: `{ kind: 'threshold', threshold: 0.5 }`.
 */
export type EvaluationPolicy =
  | ({ kind: 'threshold'; threshold?: number } & FailoverSetting)
  | ({ kind: 'multiStage'; challengeAt?: number; rejectAt?: number } & FailoverSetting)
  | ({ kind: 'proofOfWorkOnly' } & FailoverSetting);

/** Decision for a result the failover gateway synthesized. */
export interface FailoverSetting {
  /** Default `challenge`: the score of a failover result says little about the client. */
  onGatewayFailover?: Decision;
}

/** Codes of {@link EvaluationReason}. */
export type EvaluationReasonCode =
  | 'VERIFICATION_FAILED'
  | 'DECISION_ACTION_BLOCK'
  | 'GATEWAY_FAILOVER'
  | 'PROOF_OF_WORK_PASSED'
  | 'SCORE_BELOW_THRESHOLD'
  | 'SCORE_AT_OR_ABOVE_THRESHOLD'
  | 'SCORE_LOW'
  | 'SCORE_NEEDS_EXTRA_CHECK'
  | 'SCORE_TOO_HIGH'
  | 'SCORE_INVALID'
  | 'LEGACY_REASON'
  | 'TOKEN_INVALID'
  | 'SERVICE_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'FAIL_OPEN'
  /** This process already answered (or is answering) this verification; a token admits one request. */
  | 'REPLAYED'
  /** The service returned the result of another verification than the one asked for. */
  | 'VERIFICATION_ID_MISMATCH'
  | 'CAPTCHA_ID_MISMATCH'
  | 'ORIGIN_MISMATCH'
  | 'ORIGIN_EMPTY'
  | 'TOO_OLD'
  | 'AGE_UNKNOWN'
  /** Adapters: the request body was larger than allowed. */
  | 'BODY_TOO_LARGE'
  /** Adapters: the request body could not be read. */
  | 'BODY_UNREADABLE';

/** Why a decision was taken: a stable code and a sentence for logs. */
export interface EvaluationReason {
  code: EvaluationReasonCode;
  message: string;
}

/** Outcome of {@link evaluate}. */
export interface Evaluation {
  decision: Decision;
  reasons: EvaluationReason[];
}

/** The fields evaluation reads; both current results and legacy assessments have this shape. */
export interface EvaluableResult {
  verificationPassed: boolean;
  score: number;
  decisionAction?: string | undefined;
  gatewayFailoverActive?: boolean | undefined;
  /** Legacy results only. */
  reason?: string | undefined;
}

/** The policy used when none is given. Frozen: it is known valid, so verify skips checking it. */
export const DEFAULT_POLICY: EvaluationPolicy = Object.freeze({ kind: 'threshold', threshold: 0.5 });

function unitIssue(value: unknown, path: string): ValidationIssue[] {
  if (value === undefined) return [];
  return typeof value === 'number' && value >= 0 && value <= 1
    ? []
    : [{ path, message: 'must be a number from 0 to 1' }];
}

/** Checks a policy; throws {@link LocalValidationError} listing every problem. */
export function validatePolicy(policy: EvaluationPolicy): void {
  const issues: ValidationIssue[] = [];
  if (
    policy.onGatewayFailover !== undefined &&
    !(DECISIONS as readonly string[]).includes(policy.onGatewayFailover)
  ) {
    issues.push({ path: 'onGatewayFailover', message: 'must be accept, challenge or reject' });
  }
  if (policy.kind === 'threshold') issues.push(...unitIssue(policy.threshold, 'threshold'));
  else if (policy.kind === 'multiStage') {
    issues.push(...unitIssue(policy.challengeAt, 'challengeAt'), ...unitIssue(policy.rejectAt, 'rejectAt'));
    if ((policy.challengeAt ?? 0.4) > (policy.rejectAt ?? 0.8)) {
      issues.push({ path: 'challengeAt', message: 'must not be above rejectAt' });
    }
  } else if (policy.kind !== 'proofOfWorkOnly') {
    issues.push({ path: 'kind', message: 'must be threshold, multiStage or proofOfWorkOnly' });
  }
  if (issues.length) throw new LocalValidationError(issues, 'evaluation policy');
}

function byScore(score: number, policy: EvaluationPolicy): Evaluation {
  if (policy.kind === 'proofOfWorkOnly') {
    return {
      decision: 'accept',
      reasons: [
        { code: 'PROOF_OF_WORK_PASSED', message: 'verification passed; the score is not considered' },
      ],
    };
  }
  if (!Number.isFinite(score) || score < 0 || score > 1) {
    return {
      decision: 'reject',
      reasons: [{ code: 'SCORE_INVALID', message: `score ${score} is not from 0 to 1` }],
    };
  }
  if (policy.kind === 'threshold') {
    const threshold = policy.threshold ?? 0.5;
    return score < threshold
      ? {
          decision: 'accept',
          reasons: [{ code: 'SCORE_BELOW_THRESHOLD', message: `score ${score} is below ${threshold}` }],
        }
      : {
          decision: 'reject',
          reasons: [
            { code: 'SCORE_AT_OR_ABOVE_THRESHOLD', message: `score ${score} is not below ${threshold}` },
          ],
        };
  }
  const rejectAt = policy.rejectAt ?? 0.8;
  const challengeAt = policy.challengeAt ?? 0.4;
  if (score >= rejectAt) {
    return {
      decision: 'reject',
      reasons: [{ code: 'SCORE_TOO_HIGH', message: `score ${score} is ${rejectAt} or more` }],
    };
  }
  if (score >= challengeAt) {
    return {
      decision: 'challenge',
      reasons: [
        {
          code: 'SCORE_NEEDS_EXTRA_CHECK',
          message: `score ${score} is ${challengeAt} or more; ask for an extra check`,
        },
      ],
    };
  }
  return {
    decision: 'accept',
    reasons: [{ code: 'SCORE_LOW', message: `score ${score} is below ${challengeAt}` }],
  };
}

/**
 * Turns a bot-check result (current or legacy) into a decision under a policy. Pure: no I/O.
 *
 * @example
 * const { decision } = evaluate(result, { kind: 'multiStage' });
 * if (decision === 'challenge') askForSecondFactor();
 */
export function evaluate(result: EvaluableResult, policy: EvaluationPolicy = DEFAULT_POLICY): Evaluation {
  validatePolicy(policy);
  return evaluateValidPolicy(result, policy);
}

/** {@link evaluate} for a policy {@link validatePolicy} already accepted (verify checks it once, up front). */
export function evaluateValidPolicy(result: EvaluableResult, policy: EvaluationPolicy): Evaluation {
  const context: EvaluationReason[] = [];
  if (typeof result.reason === 'string') {
    context.push({
      code: 'LEGACY_REASON',
      message: `service reason: ${normalizeLegacyReason(result.reason)}`,
    });
  }
  if (result.verificationPassed !== true) {
    return {
      decision: 'reject',
      reasons: [{ code: 'VERIFICATION_FAILED', message: 'the verification did not pass' }, ...context],
    };
  }
  if (result.decisionAction === 'BLOCK') {
    return {
      decision: 'reject',
      reasons: [{ code: 'DECISION_ACTION_BLOCK', message: 'the service recommends BLOCK' }, ...context],
    };
  }
  if (result.gatewayFailoverActive === true) {
    const decision = policy.onGatewayFailover ?? 'challenge';
    return {
      decision,
      reasons: [
        {
          code: 'GATEWAY_FAILOVER',
          message: `result synthesized by the failover gateway; onGatewayFailover is ${decision}`,
        },
        ...context,
      ],
    };
  }
  const scored = byScore(result.score, policy);
  return { decision: scored.decision, reasons: [...scored.reasons, ...context] };
}
