import { TEST_VERIFICATION_IDS } from '../../botcheck/test-ids.js';
import { HttpProblem } from '../problem.js';
import { DEFAULT_VALIDITY_MS, type ResultApi, type StoredVerification } from './store.js';

const SAMPLE_CAPTCHA_ID = '7d3e9b1a-4c2f-4e8a-b6d5-1f0a9c8e2b47';
const TEST_IDS: ReadonlySet<string> = new Set(Object.values(TEST_VERIFICATION_IDS));

/** Whether `id` is one of the documented test ids (compared case-insensitively). */
export function isTestId(id: string): boolean {
  return TEST_IDS.has(id.toLowerCase());
}

/**
 * The canned answer of a test id: a sample passed verification for `...0000` (test key only),
 * else the documented status. The sample is never stored, so it can be fetched any number of times.
 */
export function testIdAnswer(
  id: string,
  isTestKey: boolean,
  api: ResultApi,
  now: number,
): StoredVerification {
  switch (id.toLowerCase()) {
    case TEST_VERIFICATION_IDS.passed:
      if (!isTestKey)
        throw new HttpProblem(
          404,
          'Unknown verificationId: the test ids answer only to the test key, ak_ followed by 49 x',
        );
      return {
        verificationId: id,
        captchaId: SAMPLE_CAPTCHA_ID,
        accessToken: '',
        settings: {
          finished: true,
          passed: true,
          decisionType: 'STANDARD',
          decisionAction: 'ALLOW',
          minimalDataMode: false,
          maxFetches: 1,
          validityMs: DEFAULT_VALIDITY_MS,
          mode: 'STANDARD',
          finishedAgoMs: 1800,
        },
        score: 0.1,
        reason: 'CALCULATED',
        gatewayFailoverActive: false,
        startedAt: now - 4200,
        finishedAt: now - 1800,
        fetches: 1,
        firstFetchedAt: now,
        lastFetchedAt: now,
      };
    case TEST_VERIFICATION_IDS.notFound:
      throw new HttpProblem(404, 'Unknown verificationId (test id)');
    case TEST_VERIFICATION_IDS.notFinished:
      throw new HttpProblem(423, 'Result not yet released (test id)');
    case TEST_VERIFICATION_IDS.expired:
      throw new HttpProblem(410, 'Result expired (test id)');
    default:
      throw api === 'legacy'
        ? new HttpProblem(410, 'Result already retrieved (test id); the captcha must be solved again')
        : new HttpProblem(429, 'Allowed fetch count exceeded (test id)');
  }
}
