import { type BindingOptions, bindingFailures, withBinding } from '../../botcheck/binding.js';
import type { Decision, Evaluation, EvaluationPolicy } from '../../botcheck/evaluate.js';
import { evaluate } from '../../botcheck/evaluate.js';
import type { WaitWhileNotFinished } from '../../botcheck/fetch-result.js';
import type { LegacyAssessmentResult } from '../../botcheck/legacy-client.js';
import type { VerificationResult } from '../../botcheck/schemas.js';
import { isVerificationId } from '../../botcheck/schemas.js';
import { assertWellFormed, decodeVerificationToken } from '../../botcheck/token.js';
import { choiceRefusal, FAILOVER_DECISIONS } from '../choices.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { CaptchaLegacyOptions, CaptchaOptions } from '../options/captcha-options.js';
import { fieldsView } from '../output.js';
import { parseIntOption, UsageError } from '../usage-error.js';

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses `--max-age 90s | 5m | 2h | 500ms` to milliseconds. */
function parseDurationOption(text: string, option: string): number {
  const m = DURATION.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!(ms > 0)) {
    throw new UsageError(`${option} must be a duration such as 90s, 5m or 2h; got ${JSON.stringify(text)}`);
  }
  return ms;
}

function parseBinding(flags: CaptchaOptions): BindingOptions {
  const binding: BindingOptions = {};
  if (flags.expectOrigin !== undefined) {
    for (const url of flags.expectOrigin) {
      let origin = 'null';
      try {
        origin = new URL(url).origin;
      } catch {}
      if (origin === 'null')
        throw new UsageError(`--expect-origin must be an http(s) URL; got ${JSON.stringify(url)}`);
    }
    binding.expectedOrigins = flags.expectOrigin;
  }
  if (flags.maxAge !== undefined) binding.maxAgeMs = parseDurationOption(flags.maxAge, '--max-age');
  return binding;
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
    throw new UsageError(choiceRefusal('--on-failover', FAILOVER_DECISIONS, onFailover));
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
function prepare(ctx: CommandContext, idOrToken: string, flags: CaptchaOptions) {
  const policy = parsePolicyOption(flags.policy, flags.onFailover);
  const binding = parseBinding(flags);
  const wait: WaitWhileNotFinished | undefined =
    flags.wait === undefined ? undefined : { deadlineMs: parseIntOption(flags.wait, '--wait', 0, 600_000) };
  assertWellFormed(idOrToken, 'verificationIdOrToken');
  let verificationId = idOrToken.trim();
  if (!isVerificationId(verificationId)) {
    const token = decodeVerificationToken(idOrToken);
    verificationId = token.verificationId;
    if (token.apiEndpoint !== undefined) {
      ctx.out.debug(
        'the token names an apiEndpoint; it is deprecated and ignored: the configured base URL is used',
      );
    }
  }
  return { policy, binding, wait, verificationId };
}

/** The policy's decision, turned into a reject when a binding check fails (or the id differs). */
function decide(
  result: VerificationResult | LegacyAssessmentResult,
  verificationId: string,
  policy: EvaluationPolicy,
  binding: BindingOptions,
): Evaluation {
  return withBinding(evaluate(result, policy), bindingFailures(result, verificationId, binding));
}

function decisionRows(evaluation: Evaluation): Array<[string, unknown]> {
  return [
    ['decision', evaluation.decision.toUpperCase()],
    ['reasons', evaluation.reasons.map((r) => r.message).join('; ')],
  ];
}

/**
 * Prints `{result, decision, reasons}`: `result` is the API object as received (JSON, NDJSON); the
 * table and CSV show the rows picked for the API and the decision.
 */
async function report(
  ctx: CommandContext,
  result: VerificationResult | Omit<LegacyAssessmentResult, 'parsedTimestamps'>,
  evaluation: Evaluation,
  rows: Array<[string, unknown]>,
): Promise<number> {
  await ctx.out.print({ result, decision: evaluation.decision, reasons: evaluation.reasons }, () =>
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
  flags: CaptchaOptions,
): Promise<number> {
  const { policy, binding, wait, verificationId } = prepare(ctx, idOrToken, flags);
  const client = await ctx.client.get();
  const result = await client.botCheck.getResult(verificationId, {
    ...(wait && { waitWhileNotFinished: wait }),
    ...ctx.signals.abortable,
  });
  return report(ctx, result, decide(result, verificationId, policy, binding), [
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
  flags: CaptchaLegacyOptions,
): Promise<number> {
  const { policy, binding, wait, verificationId } = prepare(ctx, idOrToken, flags);
  if (flags.accessToken !== undefined) {
    ctx.out.warn(
      '--access-token is deprecated (oldest widget versions only); use the API key of the captcha instead',
    );
  }
  const client = await ctx.client.get();
  const result = await client.legacyBotCheck.getAssessment(verificationId, {
    ...(wait && { waitWhileNotFinished: wait }),
    ...(flags.accessToken !== undefined && { accessToken: flags.accessToken }),
    ...ctx.signals.abortable,
  });
  // The parsed times are the library's reading of the zone-less fields: for the table only, so
  // JSON keeps the API object unchanged.
  const { parsedTimestamps: times, ...received } = result;
  return report(ctx, received, decide(result, verificationId, policy, binding), [
    ['verificationId', result.verificationId],
    ['reason', result.reason],
    ['mode', result.mode],
    ['created (UTC)', isoOf(times.creationTimestamp)],
    ['released (UTC)', isoOf(times.releaseTimestamp)],
    ['retrieved (UTC)', isoOf(times.retrievalTimestamp)],
  ]);
}
