import { describe, expect, it } from 'vitest';
import { type EvaluableResult, type EvaluationPolicy, evaluate } from '../../src/botcheck/evaluate.js';
import { normalizeLegacyReason } from '../../src/botcheck/schemas.js';
import { LocalValidationError } from '../../src/core/errors/error-classes.js';

const passed = (score: number, extra: Partial<EvaluableResult> = {}): EvaluableResult => ({
  verificationPassed: true,
  score,
  ...extra,
});
const decide = (result: EvaluableResult, policy?: EvaluationPolicy) => evaluate(result, policy).decision;

describe('threshold policy: accept when passed and score strictly below the threshold (default 0.5)', () => {
  it.each([
    [0, 'accept'],
    [0.49, 'accept'],
    [0.5, 'reject'],
    [0.51, 'reject'],
    [1, 'reject'],
  ] as const)('score %s -> %s (default)', (score, expected) => {
    expect(decide(passed(score))).toBe(expected);
  });

  it('takes another threshold', () => {
    expect(decide(passed(0.6), { kind: 'threshold', threshold: 0.7 })).toBe('accept');
    expect(decide(passed(0.7), { kind: 'threshold', threshold: 0.7 })).toBe('reject');
  });

  it('rejects a verification that did not pass, whatever the score', () => {
    const evaluation = evaluate({ verificationPassed: false, score: 0 });
    expect(evaluation.decision).toBe('reject');
    expect(evaluation.reasons[0]?.code).toBe('VERIFICATION_FAILED');
  });

  it('rejects a score outside 0..1 (fail closed)', () => {
    expect(evaluate(passed(Number.NaN)).reasons[0]?.code).toBe('SCORE_INVALID');
    expect(decide(passed(-0.1))).toBe('reject');
  });
});

describe('multi-stage policy: reject below pass or from 0.8, extra check from 0.4, else accept', () => {
  const policy: EvaluationPolicy = { kind: 'multiStage' };
  it.each([
    [0.1, 'accept'],
    [0.39, 'accept'],
    [0.4, 'challenge'],
    [0.45, 'challenge'],
    [0.79, 'challenge'],
    [0.8, 'reject'],
    [0.85, 'reject'],
  ] as const)('score %s -> %s', (score, expected) => {
    expect(decide(passed(score), policy)).toBe(expected);
  });

  it('rejects a failed verification with a low score', () => {
    expect(decide({ verificationPassed: false, score: 0.1 }, policy)).toBe('reject');
  });

  it('takes other limits', () => {
    const custom: EvaluationPolicy = { kind: 'multiStage', challengeAt: 0.2, rejectAt: 0.6 };
    expect(decide(passed(0.19), custom)).toBe('accept');
    expect(decide(passed(0.2), custom)).toBe('challenge');
    expect(decide(passed(0.6), custom)).toBe('reject');
  });
});

describe('proof-of-work-only policy: only verificationPassed counts', () => {
  it('accepts a passed verification with any score, rejects a failed one', () => {
    expect(decide(passed(0.99), { kind: 'proofOfWorkOnly' })).toBe('accept');
    expect(decide({ verificationPassed: false, score: 0 }, { kind: 'proofOfWorkOnly' })).toBe('reject');
  });
});

describe('current results: decisionAction BLOCK rejects under every policy', () => {
  it.each([{ kind: 'threshold' }, { kind: 'multiStage' }, { kind: 'proofOfWorkOnly' }] as EvaluationPolicy[])(
    '%j',
    (policy) => {
      const evaluation = evaluate(passed(0, { decisionAction: 'BLOCK' }), policy);
      expect(evaluation).toMatchObject({ decision: 'reject', reasons: [{ code: 'DECISION_ACTION_BLOCK' }] });
    },
  );

  it('other actions leave the decision to the score', () => {
    expect(decide(passed(0.1, { decisionAction: 'ALLOW' }))).toBe('accept');
    expect(decide(passed(0.9, { decisionAction: 'ALLOW' }))).toBe('reject');
  });
});

describe('current results: gatewayFailoverActive follows onGatewayFailover (default challenge)', () => {
  const failover = passed(0.3, { gatewayFailoverActive: true });
  it('defaults to challenge', () => {
    expect(evaluate(failover)).toMatchObject({
      decision: 'challenge',
      reasons: [{ code: 'GATEWAY_FAILOVER' }],
    });
  });
  it.each(['accept', 'challenge', 'reject'] as const)('onGatewayFailover %s', (choice) => {
    expect(decide(failover, { kind: 'threshold', onGatewayFailover: choice })).toBe(choice);
  });
  it('a failed verification is rejected even during failover', () => {
    expect(
      decide({ ...failover, verificationPassed: false }, { kind: 'threshold', onGatewayFailover: 'accept' }),
    ).toBe('reject');
  });
});

describe('legacy reasons: typed, ONLY_PROOF_OF_WORKS is an alias of ONLY_PROOF_OF_WORK', () => {
  it('normalizes the alias and keeps other values', () => {
    expect(normalizeLegacyReason('ONLY_PROOF_OF_WORKS')).toBe('ONLY_PROOF_OF_WORK');
    expect(normalizeLegacyReason('ONLY_PROOF_OF_WORK')).toBe('ONLY_PROOF_OF_WORK');
    expect(normalizeLegacyReason('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('reports the (normalized) service reason next to the decision', () => {
    const evaluation = evaluate({ verificationPassed: true, score: 0, reason: 'ONLY_PROOF_OF_WORKS' });
    expect(evaluation.decision).toBe('accept');
    expect(evaluation.reasons).toContainEqual({
      code: 'LEGACY_REASON',
      message: 'service reason: ONLY_PROOF_OF_WORK',
    });
  });

  it('follows the reason table: block-list results are rejected, failover results (0.3) accepted by threshold', () => {
    expect(decide({ verificationPassed: false, score: 1, reason: 'CUSTOM_BLOCK_LIST' })).toBe('reject');
    expect(decide({ verificationPassed: true, score: 0.3, reason: 'FAILOVER' })).toBe('accept');
  });
});

describe('policies are checked locally', () => {
  it.each([
    { kind: 'threshold', threshold: 1.5 },
    { kind: 'threshold', threshold: -1 },
    { kind: 'multiStage', challengeAt: 0.9, rejectAt: 0.5 },
    { kind: 'proofOfWorkOnly', onGatewayFailover: 'maybe' },
    { kind: 'other' },
  ])('%j is refused', (policy) => {
    expect(() => evaluate(passed(0.1), policy as unknown as EvaluationPolicy)).toThrow(LocalValidationError);
  });
});
