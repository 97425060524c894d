/**
 * Outcomes a dev server (`svc serve`, `--sandbox`, `createReferenceServer`) can give a
 * verification: what `svc captcha token --outcome`, the stand-in widget's
 * `<svc-captcha outcome="...">` and the dummy tokens produce. The reference server maps each to
 * result fields in one place (`src/server/botcheck/outcomes.ts`).
 */
export const DEV_OUTCOMES = [
  'pass',
  'fail',
  'bot',
  'challenge',
  'failover',
  'unfinished',
  'expired',
] as const;
/** One outcome a dev server can be asked for: `pass`, `fail`, `bot`, `challenge`, `failover`, `unfinished`, `expired`. */
export type DevOutcome = (typeof DEV_OUTCOMES)[number];

/** What each outcome answers, in words (help texts, docs, the console). */
export const DEV_OUTCOME_DESCRIPTIONS: Readonly<Record<DevOutcome, string>> = {
  pass: 'passed, low score 0.1: accepted by every default policy',
  fail: 'not passed (challenges not solved): rejected',
  bot: 'passed with a high score 0.9 (>= 0.8): rejected by the default policies',
  challenge: 'passed with score 0.6: the default multi-stage policy asks for an extra check (0.4..0.8)',
  failover: 'synthesized by the failover gateway (gatewayFailoverActive, decisionType FAILOVER)',
  unfinished: 'not finished: 423 until finished from the admin API or the console',
  expired: 'finished too long ago: 410',
};

/** Whether `value` names a {@link DevOutcome}. */
export function isDevOutcome(value: unknown): value is DevOutcome {
  return typeof value === 'string' && (DEV_OUTCOMES as readonly string[]).includes(value);
}

/**
 * Verification ids of the dummy tokens, one per outcome. A dev server answers them the same way
 * on every fetch (they are never consumed) and to any key its bot-check APIs accept.
 * **Never valid against the real service** (it answers 404).
 */
export const DUMMY_VERIFICATION_IDS: Readonly<Record<DevOutcome, string>> = {
  pass: '00000000-0000-0000-dddd-000000000001',
  fail: '00000000-0000-0000-dddd-000000000002',
  bot: '00000000-0000-0000-dddd-000000000003',
  challenge: '00000000-0000-0000-dddd-000000000004',
  failover: '00000000-0000-0000-dddd-000000000005',
  unfinished: '00000000-0000-0000-dddd-000000000006',
  expired: '00000000-0000-0000-dddd-000000000007',
};

/**
 * Dummy verification tokens (Base64 of `{"verificationId": <dummy id>}`), one per outcome, for
 * tests that replay recorded form posts: a dev server answers each the same way on every fetch,
 * like Cloudflare Turnstile's dummy tokens. **Never valid against the real service.**
 *
 * @example
 * await fetch(`${devServerUrl}/signup`, { method: 'POST', body: new URLSearchParams({
 *   'svc-verification-token': DUMMY_TOKENS.pass }) });
 */
export const DUMMY_TOKENS: Readonly<Record<DevOutcome, string>> = {
  pass: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwMSJ9',
  fail: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwMiJ9',
  bot: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwMyJ9',
  challenge: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwNCJ9',
  failover: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwNSJ9',
  unfinished: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwNiJ9',
  expired: 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwNyJ9',
};

/** The outcome of a dummy verification id (case-insensitive), or undefined for any other id. */
export function dummyOutcomeOf(verificationId: string): DevOutcome | undefined {
  const id = verificationId.toLowerCase();
  return DEV_OUTCOMES.find((outcome) => DUMMY_VERIFICATION_IDS[outcome] === id);
}
