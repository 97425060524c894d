import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEV_OUTCOMES,
  type DevOutcome,
  DUMMY_TOKENS,
  DUMMY_VERIFICATION_IDS,
  dummyOutcomeOf,
} from '../../src/botcheck/dev-outcomes.js';
import { isDummyVerificationId } from '../../src/botcheck/dummy-id.js';
import {
  VerificationNotFinishedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from '../../src/botcheck/errors.js';
import { type Decision, type EvaluationPolicy, evaluate } from '../../src/botcheck/evaluate.js';
import { decodeVerificationToken } from '../../src/botcheck/token.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { ROOT } from '../helpers/build.js';
import { failure } from '../helpers/client.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

const THRESHOLD: EvaluationPolicy = { kind: 'threshold' };
const MULTI_STAGE: EvaluationPolicy = { kind: 'multiStage' };

/** Decisions of the default threshold and multi-stage policies for each outcome with a result. */
const EXPECTED: Record<Exclude<DevOutcome, 'unfinished' | 'expired'>, [Decision, Decision]> = {
  pass: ['accept', 'accept'],
  fail: ['reject', 'reject'],
  bot: ['reject', 'reject'],
  challenge: ['reject', 'challenge'],
  failover: ['challenge', 'challenge'],
};
const WITH_RESULT = Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>;

describe('outcomes: one verification per outcome, decided as documented by the default policies', () => {
  it.each(WITH_RESULT)('%s', async (outcome) => {
    const { token } = server().admin.createVerification({ outcome });
    const result = await client().botCheck.getResult(token);
    const [threshold, multiStage] = EXPECTED[outcome];
    expect(evaluate(result, THRESHOLD).decision).toBe(threshold);
    expect(evaluate(result, MULTI_STAGE).decision).toBe(multiStage);
  });

  it('bot scores at or above 0.8, challenge between 0.4 and 0.8, failover comes from the gateway', async () => {
    const get = async (outcome: DevOutcome) =>
      client().botCheck.getResult(server().admin.createVerification({ outcome }).token);
    expect((await get('bot')).score).toBeGreaterThanOrEqual(0.8);
    const challenge = (await get('challenge')).score;
    expect(challenge >= 0.4 && challenge < 0.8).toBe(true);
    expect(await get('failover')).toMatchObject({ gatewayFailoverActive: true, decisionType: 'FAILOVER' });
  });

  it('unfinished answers 423 until finished, then the result', async () => {
    const { verificationId } = server().admin.createVerification({ outcome: 'unfinished' });
    expect(await failure(client().botCheck.getResult(verificationId))).toBeInstanceOf(
      VerificationNotFinishedError,
    );
    server().admin.finishVerification(verificationId);
    expect((await client().botCheck.getResult(verificationId)).verificationPassed).toBe(true);
  });

  it('expired answers 410', async () => {
    const { verificationId } = server().admin.createVerification({ outcome: 'expired' });
    expect(await failure(client().botCheck.getResult(verificationId))).toBeInstanceOf(
      VerificationResultExpiredError,
    );
  });

  it('fields given with the outcome win over its preset, over HTTP too', async () => {
    const res = await rawRequest(server().url, 'POST', '/__admin/verifications', {
      body: { outcome: 'bot', score: 0.85 },
    });
    expect(res.status).toBe(201);
    const result = await client().botCheck.getResult((res.body as { token: string }).token);
    expect(result.score).toBe(0.85);
  });

  it('an unknown outcome is 422 and creates nothing', async () => {
    const res = await rawRequest(server().url, 'POST', '/__admin/verifications', {
      body: { outcome: 'maybe' },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('outcome');
  });
});

describe('dummy tokens: the same answer on every fetch, to any accepted key', () => {
  it('each token decodes to its dummy id, and each id to its outcome', () => {
    for (const outcome of DEV_OUTCOMES) {
      expect(decodeVerificationToken(DUMMY_TOKENS[outcome]).verificationId).toBe(
        DUMMY_VERIFICATION_IDS[outcome],
      );
      expect(dummyOutcomeOf(DUMMY_VERIFICATION_IDS[outcome].toUpperCase())).toBe(outcome);
    }
    expect(dummyOutcomeOf('00000000-0000-0000-dddd-000000000000')).toBeUndefined();
  });

  it('the verify path tells exactly the dummy ids, whatever their case, without the tables', () => {
    for (const id of Object.values(DUMMY_VERIFICATION_IDS)) {
      expect(isDummyVerificationId(id)).toBe(true);
      expect(isDummyVerificationId(id.toUpperCase())).toBe(true);
    }
    for (const id of [
      '00000000-0000-0000-dddd-000000000000',
      '00000000-0000-0000-dddd-000000000008',
      '00000000-0000-0000-dddd-0000000000011',
      ' 00000000-0000-0000-dddd-000000000001',
      '10000000-0000-0000-dddd-000000000001',
    ]) {
      expect(isDummyVerificationId(id)).toBe(dummyOutcomeOf(id) !== undefined);
    }
  });

  it.each(WITH_RESULT)('%s: current API, three fetches, demo and test key alike', async (outcome) => {
    for (const key of [DEMO.projectKey, TEST_KEY, DEMO.projectKey]) {
      const result = await client(key).botCheck.getResult(DUMMY_TOKENS[outcome]);
      expect(result.verificationId).toBe(DUMMY_VERIFICATION_IDS[outcome]);
      expect(evaluate(result, MULTI_STAGE).decision).toBe(EXPECTED[outcome][1]);
    }
  });

  // The legacy API has no gateway flag: a failover shows only as its reason.
  it.each(WITH_RESULT.filter((o) => o !== 'failover'))('%s: legacy API, twice', async (outcome) => {
    for (let i = 0; i < 2; i += 1) {
      const result = await client(DEMO.captchaSecret).legacyBotCheck.getAssessment(DUMMY_TOKENS[outcome]);
      expect(evaluate(result, THRESHOLD).decision).toBe(EXPECTED[outcome][0]);
    }
  });

  it('failover: legacy API, reason FAILOVER on every fetch', async () => {
    for (let i = 0; i < 2; i += 1) {
      const result = await client(DEMO.captchaSecret).legacyBotCheck.getAssessment(DUMMY_TOKENS.failover);
      expect(result.reason).toBe('FAILOVER');
    }
  });

  it('unfinished is 423 and expired 410 on every fetch', async () => {
    for (let i = 0; i < 2; i += 1) {
      expect(await failure(client().botCheck.getResult(DUMMY_TOKENS.unfinished))).toBeInstanceOf(
        VerificationNotFinishedError,
      );
      expect(await failure(client().botCheck.getResult(DUMMY_TOKENS.expired))).toBeInstanceOf(
        VerificationResultExpiredError,
      );
    }
  });

  it('an id next to the dummy ids is an ordinary unknown verification (404)', async () => {
    expect(await failure(client().botCheck.getResult('00000000-0000-0000-dddd-000000000008'))).toBeInstanceOf(
      VerificationNotFoundError,
    );
  });
});

describe('verify(): a dummy token is answered on every submit, a real one once', () => {
  it('the pass dummy is accepted on each of three submits to one client; bot rejected each time, not as a replay', async () => {
    const c = client();
    for (let i = 0; i < 3; i += 1) {
      expect((await c.botCheck.verify(DUMMY_TOKENS.pass)).decision).toBe('accept');
      const bot = await c.botCheck.verify(DUMMY_TOKENS.bot);
      expect(bot.decision).toBe('reject');
      expect(bot.reasons.map((r) => r.code)).not.toContain('REPLAYED');
    }
    const legacy = client(DEMO.captchaSecret);
    for (let i = 0; i < 2; i += 1) {
      expect((await legacy.legacyBotCheck.verify(DUMMY_TOKENS.pass)).decision).toBe('accept');
    }
  });

  it('a minted token is still refused as REPLAYED on the second submit', async () => {
    const c = client();
    const { token } = server().admin.createVerification({ outcome: 'pass' });
    expect((await c.botCheck.verify(token)).decision).toBe('accept');
    const again = await c.botCheck.verify(token);
    expect(again.reasons.map((r) => r.code)).toContain('REPLAYED');
  });
});

describe('docs/reference-server.md documents every outcome and its dummy token', () => {
  it('names each outcome with its dummy id and token, and says they are never valid against the real service', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'reference-server.md'), 'utf8');
    for (const outcome of DEV_OUTCOMES) {
      const row = doc.split('\n').find((line) => line.includes(DUMMY_TOKENS[outcome]));
      expect(row, outcome).toContain(`\`${outcome}\``);
      expect(row, outcome).toContain(DUMMY_VERIFICATION_IDS[outcome]);
    }
    expect(doc).toMatch(/never valid against the real service/i);
  });
});
