import * as z from 'zod/mini';
import { type DevOutcome, DUMMY_VERIFICATION_IDS, isDevOutcome } from '../../botcheck/dev-outcomes.js';
import { HttpProblem } from '../problem.js';
import {
  CreateVerificationBody,
  type CreateVerificationInput,
  DEFAULT_VALIDITY_MS,
  type StoredVerification,
  storedVerification,
} from './store.js';

/**
 * The one outcome -> result mapping of the dev server, shared by `POST /__admin/verifications
 * {outcome}`, `svc captcha token`, the console's buttons, the stand-in widget and the dummy
 * tokens. The thresholds are those of the default policies (`src/botcheck/evaluate.ts`):
 * threshold 0.5; multi-stage extra check from 0.4, reject from 0.8.
 */
export const OUTCOME_SETTINGS: Readonly<Record<DevOutcome, Readonly<CreateVerificationInput>>> = {
  pass: { passed: true, score: 0.1 },
  fail: { passed: false, score: 1 },
  bot: { passed: true, score: 0.9 },
  challenge: { passed: true, score: 0.6 },
  failover: { passed: true, score: 0.3, decisionType: 'FAILOVER', gatewayFailoverActive: true },
  unfinished: { finished: false },
  expired: { finishedAgoMs: DEFAULT_VALIDITY_MS + 60_000 },
};

/** Applies the preset of `outcome` under the fields given explicitly. */
function withOutcome(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const outcome = (raw as { outcome?: unknown }).outcome;
  return isDevOutcome(outcome) ? { ...OUTCOME_SETTINGS[outcome], ...raw } : raw;
}

/** Body of `POST /__admin/verifications`: {@link CreateVerificationBody} with the `outcome` preset applied. */
export const CreateVerificationRequest = z.pipe(z.transform(withOutcome), CreateVerificationBody);

/**
 * The answer to a dummy verification id: the same on every fetch, never stored or consumed. 423
 * for `unfinished`, 410 for `expired`, else a result finished 1.8 s before `now`.
 */
export function dummyAnswer(outcome: DevOutcome, captchaId: string, now: number): StoredVerification {
  if (outcome === 'unfinished') throw new HttpProblem(423, 'Result not yet released (dummy token)');
  if (outcome === 'expired') throw new HttpProblem(410, 'Result expired (dummy token)');
  const settings = CreateVerificationRequest.parse({ outcome, finishedAgoMs: 1800 });
  const ids = { verificationId: DUMMY_VERIFICATION_IDS[outcome], captchaId, accessToken: '' };
  return { ...storedVerification(settings, ids, now), fetches: 1, firstFetchedAt: now, lastFetchedAt: now };
}
