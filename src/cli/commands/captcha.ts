import type { Decision, Evaluation, EvaluationPolicy } from '../../botcheck/evaluate.js';
import { evaluate } from '../../botcheck/evaluate.js';
import type { WaitWhileNotFinished } from '../../botcheck/fetch-result.js';
import type { LegacyAssessmentResult } from '../../botcheck/legacy-client.js';
import type { VerificationResult } from '../../botcheck/schemas.js';
import { isVerificationId } from '../../botcheck/schemas.js';
import { decodeVerificationToken } from '../../botcheck/token.js';
import { FAILOVER_DECISIONS } from '../choices.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { fieldsView } from '../output.js';
import { parseIntOption, UsageError } from '../usage-error.js';

interface CaptchaFlags {
  policy: string;
  onFailover: string;
  wait?: string;
  accessToken?: string;
}

const UNIT = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/;
const POLICY_USAGE = 'threshold[:T], multi-stage[:LOW,HIGH] or pow-only, with numbers from 0 to 1';

function unit(text: string, spec: string): number {
  if (!UNIT.test(text.trim())) throw new UsageError(`--policy must be ${POLICY_USAGE}; got '${spec}'`);
  return Number(text);
}

/** Parses `--policy threshold[:T] | multi-stage[:LOW,HIGH] | pow-only` (with `--on-failover`). */
export function parsePolicyOption(spec: string, onFailover = 'challenge'): EvaluationPolicy {
  if (!(FAILOVER_DECISIONS as readonly string[]).includes(onFailover)) {
    throw new UsageError(`--on-failover must be accept, challenge or reject; got '${onFailover}'`);
  }
  const failover = { onGatewayFailover: onFailover as Decision };
  const [name, args, ...extra] = spec.trim().split(':');
  if (extra.length) throw new UsageError(`--policy must be ${POLICY_USAGE}; got '${spec}'`);
  if (name === 'pow-only' && args === undefined) return { kind: 'proofOfWorkOnly', ...failover };
  if (name === 'threshold') {
    return { kind: 'threshold', threshold: args === undefined ? 0.5 : unit(args, spec), ...failover };
  }
  if (name === 'multi-stage') {
    if (args === undefined) return { kind: 'multiStage', ...failover };
    const [low, high, ...more] = args.split(',');
    if (low === undefined || high === undefined || more.length) {
      throw new UsageError(`--policy multi-stage takes two numbers LOW,HIGH; got '${spec}'`);
    }
    const challengeAt = unit(low, spec);
    const rejectAt = unit(high, spec);
    if (challengeAt > rejectAt) throw new UsageError(`--policy multi-stage needs LOW <= HIGH; got '${spec}'`);
    return { kind: 'multiStage', challengeAt, rejectAt, ...failover };
  }
  throw new UsageError(`--policy must be ${POLICY_USAGE}; got '${spec}'`);
}

const EXIT_BY_DECISION: Record<Decision, number> = {
  accept: EXIT.OK,
  challenge: EXIT.CHALLENGE,
  reject: EXIT.REJECTED,
};

/** Checks flags and the id or token before any request (bad input exits 2 and sends nothing). */
function prepare(ctx: CommandContext, idOrToken: string, flags: CaptchaFlags) {
  const policy = parsePolicyOption(flags.policy, flags.onFailover);
  const wait: WaitWhileNotFinished | undefined =
    flags.wait === undefined ? undefined : { deadlineMs: parseIntOption(flags.wait, '--wait', 0, 600_000) };
  let verificationId = idOrToken.trim();
  if (!isVerificationId(verificationId)) {
    const token = decodeVerificationToken(idOrToken);
    verificationId = token.verificationId;
    if (token.apiEndpoint !== undefined) {
      ctx.debugLine(
        'the token names an apiEndpoint; it is deprecated and ignored: the configured base URL is used',
      );
    }
  }
  return { policy, wait, verificationId };
}

function decisionRows(evaluation: Evaluation): Array<[string, unknown]> {
  return [
    ['decision', evaluation.decision.toUpperCase()],
    ['reasons', evaluation.reasons.map((r) => r.message).join('; ')],
  ];
}

async function report(
  ctx: CommandContext,
  result: VerificationResult | LegacyAssessmentResult,
  evaluation: Evaluation,
  rows: Array<[string, unknown]>,
): Promise<number> {
  await ctx.print({ result, decision: evaluation.decision, reasons: evaluation.reasons }, () =>
    fieldsView([
      ['verdict', result.verificationPassed ? 'passed' : 'not passed'],
      ['score', result.score],
      ...rows,
      ...decisionRows(evaluation),
    ]),
  );
  return EXIT_BY_DECISION[evaluation.decision];
}

/** `svc captcha result <id | token>`: current API. */
export async function captchaResult(
  ctx: CommandContext,
  idOrToken: string,
  flags: CaptchaFlags,
): Promise<number> {
  const { policy, wait, verificationId } = prepare(ctx, idOrToken, flags);
  const client = await ctx.client();
  const result = await client.botCheck.getResult(verificationId, {
    ...(wait && { waitWhileNotFinished: wait }),
    ...(ctx.io.signal && { signal: ctx.io.signal }),
  });
  return report(ctx, result, evaluate(result, policy), [
    ['verificationId', result.verificationId],
    ['decisionType', result.decisionType],
    ['decisionAction', result.decisionAction],
    ['gatewayFailoverActive', result.gatewayFailoverActive],
    ['minimalDataMode', result.minimalDataModeEnabled],
    ['verificationStartedAt', result.verificationStartedAt],
    ['verificationFinishedAt', result.verificationFinishedAt],
    ['resultExpiresAt', result.resultExpiresAt],
    ['resultFirstFetchedAt', result.resultFirstFetchedAt],
  ]);
}

const isoOf = (date: Date | undefined) => date?.toISOString();

/** `svc captcha legacy <id | token> [--access-token T]`: legacy API. */
export async function captchaLegacy(
  ctx: CommandContext,
  idOrToken: string,
  flags: CaptchaFlags,
): Promise<number> {
  const { policy, wait, verificationId } = prepare(ctx, idOrToken, flags);
  if (flags.accessToken !== undefined) {
    ctx.warn(
      '--access-token is deprecated (oldest widget versions only); use the API key of the captcha instead',
    );
  }
  const client = await ctx.client();
  const result = await client.legacyBotCheck.getAssessment(verificationId, {
    ...(wait && { waitWhileNotFinished: wait }),
    ...(flags.accessToken !== undefined && { accessToken: flags.accessToken }),
    ...(ctx.io.signal && { signal: ctx.io.signal }),
  });
  const times = result.parsedTimestamps;
  return report(ctx, result, evaluate(result, policy), [
    ['verificationId', result.verificationId],
    ['reason', result.reason],
    ['mode', result.mode],
    ['created (UTC)', isoOf(times.creationTimestamp)],
    ['released (UTC)', isoOf(times.releaseTimestamp)],
    ['retrieved (UTC)', isoOf(times.retrievalTimestamp)],
  ]);
}
