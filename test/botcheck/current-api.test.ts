import { describe, expect, it } from 'vitest';
import {
  FetchLimitReachedError,
  VerificationNotFinishedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from '../../src/botcheck/errors.js';
import { VerificationResultSchema } from '../../src/botcheck/schemas.js';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { PermissionDeniedError, TimeoutError } from '../../src/core/errors/error-classes.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

const MINUTE = 60_000;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const resultPath = (id: string) => `/captcha/v2/verifications/${id}/results`;

describe('current API: GET /captcha/v2/verifications/{id}/results with a Bearer project key', () => {
  it('returns the result of 2.5 for the verification id or its token', async () => {
    const { verificationId, token } = server().admin.createVerification({ score: 0.2 });
    const result = await client().botCheck.getResult(token);
    expect(result).toMatchObject({
      captchaId: DEMO.captchaId,
      verificationId,
      verificationPassed: true,
      score: 0.2,
      decisionType: 'STANDARD',
      decisionAction: 'NO_ACTION',
      gatewayFailoverActive: false,
      riskScoringEnabled: true,
      minimalDataModeEnabled: false,
    });
    for (const field of [
      'origin',
      'ipAddress',
      'countryCode',
      'deviceFamily',
      'operatingSystem',
      'browser',
    ] as const) {
      expect(result[field]).toMatch(/\S/);
    }
    for (const field of [
      'verificationStartedAt',
      'verificationFinishedAt',
      'resultExpiresAt',
      'resultFirstFetchedAt',
      'resultLastFetchedAt',
    ] as const) {
      expect(result[field]).toMatch(ISO_MS_Z);
    }
    expect(Date.parse(result.resultExpiresAt ?? '') - Date.parse(result.verificationFinishedAt ?? '')).toBe(
      15 * MINUTE,
    );
  });

  it('the server answers exactly the shared schema (no field missing)', async () => {
    const { verificationId } = server().admin.createVerification();
    const res = await rawRequest(server().url, 'GET', resultPath(verificationId), { key: DEMO.projectKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(
      Object.keys(VerificationResultSchema().shape).sort(),
    );
  });

  it('a missing or invalid key is 403; a key of another project gets 404', async () => {
    const { verificationId } = server().admin.createVerification();
    expect((await rawRequest(server().url, 'GET', resultPath(verificationId))).status).toBe(403);
    expect(
      (await rawRequest(server().url, 'GET', resultPath(verificationId), { key: 'ak_nope' })).status,
    ).toBe(403);
    await expect(client('ak_nope').botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    await expect(client(DEMO.captchaSecret).botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    await expect(client(DEMO.basicKey).botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
    await expect(client(TEST_KEY).botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
    // Neither attempt consumed the result.
    expect((await client().botCheck.getResult(verificationId)).verificationId).toBe(verificationId);
  });
});

describe('availability rule 1 and 4: retrievable for 15 minutes (configurable), then 410', () => {
  it('answers just before 15 minutes and 410 after 16', async () => {
    const a = server().admin.createVerification();
    const b = server().admin.createVerification();
    // The server clock is wall time plus the offset, so leave a margin for the test's own run time.
    server().admin.advanceClock(15 * MINUTE - 5000);
    await expect(client().botCheck.getResult(a.verificationId)).resolves.toBeDefined();
    server().admin.advanceClock(MINUTE);
    const error = await client()
      .botCheck.getResult(b.verificationId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationResultExpiredError);
    expect((error as Error).message).toMatch(/expired; the captcha must be solved again/);
  });

  it('takes the validity of the captcha environment', async () => {
    const { verificationId } = server().admin.createVerification({ validityMs: 60_000 });
    server().admin.advanceClock(61_000);
    await expect(client().botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      VerificationResultExpiredError,
    );
  });

  it('counts validity from the finish, not the start', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    server().admin.advanceClock(30 * MINUTE);
    server().admin.finishVerification(verificationId);
    server().admin.advanceClock(14 * MINUTE);
    await expect(client().botCheck.getResult(verificationId)).resolves.toMatchObject({ verificationId });
  });
});

describe('availability rule 2: before the verification finished, 423', () => {
  it('is 423 until finished (admin HTTP API), then the result', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    const error = await client()
      .botCheck.getResult(verificationId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationNotFinishedError);
    expect((error as Error).message).toMatch(/not finished/);
    const finish = await rawRequest(server().url, 'POST', `/__admin/verifications/${verificationId}/finish`);
    expect(finish.status).toBe(200);
    await expect(client().botCheck.getResult(verificationId)).resolves.toMatchObject({
      verificationPassed: true,
    });
  });

  it('waitWhileNotFinished asks again at the interval until released', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    const c = client(DEMO.projectKey, {
      sleep: async () => {
        if (server().admin.stats().verificationFetches === 3)
          server().admin.finishVerification(verificationId);
      },
    });
    const result = await c.botCheck.getResult(verificationId, {
      waitWhileNotFinished: { deadlineMs: 10_000, intervalMs: 1000 },
    });
    expect(result.verificationId).toBe(verificationId);
    expect(server().admin.stats().verificationFetches).toBe(4);
  });

  it('waitWhileNotFinished gives up at the deadline with the 423 error', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    const c = client();
    await expect(
      c.botCheck.getResult(verificationId, { waitWhileNotFinished: { deadlineMs: 2000, intervalMs: 500 } }),
    ).rejects.toBeInstanceOf(VerificationNotFinishedError);
    expect(c.delays).toEqual([500, 500, 500, 500]);
    expect(server().admin.stats().verificationFetches).toBe(5);
  });
});

describe('availability rule 3: fetched once by default (configurable), then 429', () => {
  it('second fetch is 429 FetchLimitReachedError', async () => {
    const { verificationId } = server().admin.createVerification();
    await client().botCheck.getResult(verificationId);
    const error = await client()
      .botCheck.getResult(verificationId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchLimitReachedError);
    expect(error).toMatchObject({ status: 429, api: 'current' });
    expect((error as Error).message).toMatch(/fetch limit reached/);
  });

  it('maxFetches 3 allows three fetches and keeps first/last fetch times', async () => {
    const { verificationId } = server().admin.createVerification({ maxFetches: 3 });
    const first = await client().botCheck.getResult(verificationId);
    server().admin.advanceClock(5000);
    await client().botCheck.getResult(verificationId);
    server().admin.advanceClock(5000);
    const third = await client().botCheck.getResult(verificationId);
    expect(third.resultFirstFetchedAt).toBe(first.resultFirstFetchedAt);
    const apart = Date.parse(third.resultLastFetchedAt ?? '') - Date.parse(first.resultLastFetchedAt ?? '');
    expect(apart).toBeGreaterThanOrEqual(10_000);
    expect(apart).toBeLessThan(15_000);
    await expect(client().botCheck.getResult(verificationId)).rejects.toBeInstanceOf(FetchLimitReachedError);
  });

  it('a fetch is never retried once the request was sent (a retry would turn a pass into 429)', async () => {
    const { verificationId } = server().admin.createVerification();
    // The server answers after consuming the result, but slower than the client waits.
    server().admin.setFaults({ rate: 1, kinds: ['slow'], seed: 1, slowMs: 400 });
    const c = client();
    await expect(c.botCheck.getResult(verificationId, { timeoutMs: 100 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(server().admin.requests()).toHaveLength(1);
    expect(c.delays).toEqual([]);
  });

  it('neither is a 503', async () => {
    const { verificationId } = server().admin.createVerification();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    await expect(client().botCheck.getResult(verificationId)).rejects.toMatchObject({ status: 503 });
    expect(server().admin.requests()).toHaveLength(1);
  });
});

describe('minimal-data mode empties the request metadata', () => {
  it('origin, ipAddress, countryCode, deviceFamily, operatingSystem, browser are empty', async () => {
    const { verificationId } = server().admin.createVerification({ minimalDataMode: true });
    const result = await client().botCheck.getResult(verificationId);
    expect(result).toMatchObject({
      minimalDataModeEnabled: true,
      origin: '',
      ipAddress: '',
      countryCode: '',
      deviceFamily: '',
      operatingSystem: '',
      browser: '',
    });
  });
});

describe('test verification ids (current API)', () => {
  it('...0000 gives a sample passed result with the test key only', async () => {
    const result = await client(TEST_KEY).botCheck.getResult(IDS.passed);
    expect(result).toMatchObject({ verificationId: IDS.passed, verificationPassed: true });
    expect(result.score).toBeLessThan(0.5);
    // Canned: fetchable again.
    await expect(client(TEST_KEY).botCheck.getResult(IDS.passed)).resolves.toBeDefined();
    await expect(client(DEMO.projectKey).botCheck.getResult(IDS.passed)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
  });

  it.each([
    [IDS.notFound, VerificationNotFoundError, 404],
    [IDS.notFinished, VerificationNotFinishedError, 423],
    [IDS.expired, VerificationResultExpiredError, 410],
    [IDS.fetchLimit, FetchLimitReachedError, 429],
  ] as const)('%s -> %s (%s)', async (id, ErrorClass, status) => {
    await expect(client(TEST_KEY).botCheck.getResult(id)).rejects.toSatisfy(
      (e) => e instanceof ErrorClass && (e as { status: number }).status === status,
    );
  });

  it('still need a valid key (403 without)', async () => {
    expect((await rawRequest(server().url, 'GET', resultPath(IDS.passed))).status).toBe(403);
  });
});

describe('admin: POST /__admin/verifications issues an id, a token and an access token', () => {
  it('201 with a token that decodes to the id; unknown fields or bad values are 422', async () => {
    const created = await rawRequest(server().url, 'POST', '/__admin/verifications', {
      body: { score: 0.3 },
    });
    expect(created.status).toBe(201);
    const { verificationId, token, accessToken } = created.body as Record<string, string>;
    expect(JSON.parse(Buffer.from(token ?? '', 'base64').toString())).toMatchObject({
      verificationId,
      apiEndpoint: expect.any(String),
      encryptedAccessToken: expect.any(String),
    });
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const body of [{ score: 2 }, { colour: 'red' }, { decisionAction: 'MAYBE' }, { maxFetches: 0 }]) {
      expect((await rawRequest(server().url, 'POST', '/__admin/verifications', { body })).status).toBe(422);
    }
    expect(
      (await rawRequest(server().url, 'POST', `/__admin/verifications/${IDS.notFound}/finish`)).status,
    ).toBe(404);
  });

  it('reset forgets every verification', async () => {
    const { verificationId } = server().admin.createVerification();
    server().admin.reset();
    await expect(client().botCheck.getResult(verificationId)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
  });
});
