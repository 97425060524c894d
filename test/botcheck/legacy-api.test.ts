import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  FetchLimitReachedError,
  VerificationNotFinishedError,
  VerificationNotFoundError,
} from '../../src/botcheck/errors.js';
import { parseLegacyTimestamp } from '../../src/botcheck/legacy-time.js';
import { LegacyAssessmentSchema } from '../../src/botcheck/schemas.js';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import {
  BadRequestError,
  InternalServerError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '../../src/core/errors/error-classes.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { testClient } from '../helpers/client.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

const MINUTE = 60_000;
const LEGACY_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+$/;
const assessmentPath = (id: string) => `/verifications/${id}/assessments`;
const legacy = (key?: string) => (key === undefined ? {} : { key, header: 'svc-authorization' as const });

describe('legacy API: GET /verifications/{id}/assessments with svc-authorization', () => {
  it('sends svc-authorization and Content-Type: application/json, and no Authorization header', async () => {
    let seen: IncomingHttpHeaders | undefined;
    const probe = createServer((req, res) => {
      seen = req.headers;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"nope"}');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const c = testClient(`http://127.0.0.1:${(probe.address() as AddressInfo).port}`, {
      apiKey: 'ak_legacy_key_1234567',
    });
    await expect(c.legacyBotCheck.getAssessment(IDS.notFound)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
    await c.close();
    await new Promise((resolve) => probe.close(resolve));
    expect(seen?.['svc-authorization']).toBe('ak_legacy_key_1234567');
    expect(seen?.['content-type']).toBe('application/json');
    expect(seen?.authorization).toBeUndefined();
  });

  it('sends Content-Type: application/json with a deprecated access token too (no key header)', async () => {
    let seen: IncomingHttpHeaders | undefined;
    const probe = createServer((req, res) => {
      seen = req.headers;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"nope"}');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const c = testClient(`http://127.0.0.1:${(probe.address() as AddressInfo).port}`, {
      apiKey: 'ak_legacy_key_1234567',
    });
    await expect(
      c.legacyBotCheck.getAssessment(IDS.notFound, { accessToken: 'tok_0123456789abcdef' }),
    ).rejects.toBeInstanceOf(VerificationNotFoundError);
    await c.close();
    await new Promise((resolve) => probe.close(resolve));
    expect(seen?.['content-type']).toBe('application/json');
    expect(seen?.['svc-authorization']).toBeUndefined();
  });

  it('returns the assessment of 2.6 with zone-less UTC timestamps, also parsed as UTC', async () => {
    const { verificationId, token } = server().admin.createVerification({ score: 0.3 });
    const result = await client().legacyBotCheck.getAssessment(token);
    expect(result).toMatchObject({
      captchaId: DEMO.captchaId,
      verificationId,
      verificationPassed: true,
      score: 0.3,
      reason: 'CALCULATED',
      mode: 'STANDARD',
    });
    for (const field of ['creationTimestamp', 'releaseTimestamp', 'retrievalTimestamp'] as const) {
      expect(result[field]).toMatch(LEGACY_TIME);
      expect(result.parsedTimestamps[field]?.toISOString()).toBe(`${result[field]}Z`);
    }
  });

  it('the server answers exactly the shared schema (no field missing)', async () => {
    const { verificationId } = server().admin.createVerification();
    const res = await rawRequest(
      server().url,
      'GET',
      assessmentPath(verificationId),
      legacy(DEMO.projectKey),
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(
      Object.keys(LegacyAssessmentSchema().shape).sort(),
    );
  });

  it('accepts the deprecated secret key of the captcha', async () => {
    const { verificationId } = server().admin.createVerification();
    await expect(
      client(DEMO.captchaSecret).legacyBotCheck.getAssessment(verificationId),
    ).resolves.toMatchObject({
      verificationId,
    });
  });

  it('minimal-data mode empties the request metadata; ONLY_PROOF_OF_WORKS reads as ONLY_PROOF_OF_WORK', async () => {
    const { verificationId } = server().admin.createVerification({
      minimalDataMode: true,
      reason: 'ONLY_PROOF_OF_WORKS',
    });
    const raw = await rawRequest(
      server().url,
      'GET',
      assessmentPath(verificationId),
      legacy(DEMO.projectKey),
    );
    expect(raw.body).toMatchObject({ reason: 'ONLY_PROOF_OF_WORKS', origin: '', ipAddress: '', browser: '' });
    const { verificationId: second } = server().admin.createVerification({
      minimalDataMode: true,
      reason: 'ONLY_PROOF_OF_WORKS',
    });
    const result = await client().legacyBotCheck.getAssessment(second);
    expect(result).toMatchObject({
      reason: 'ONLY_PROOF_OF_WORK',
      score: 0,
      deviceFamily: '',
      operatingSystem: '',
    });
  });
});

describe('legacy timestamps: UTC without zone suffix, fractional seconds', () => {
  it.each([
    ['2026-03-01T10:15:30.123', '2026-03-01T10:15:30.123Z'],
    ['2026-03-01T10:15:30.123456', '2026-03-01T10:15:30.123Z'],
    ['2026-03-01T10:15:30.1', '2026-03-01T10:15:30.100Z'],
    ['2026-03-01T10:15:30', '2026-03-01T10:15:30.000Z'],
    ['2026-03-01 10:15:30.5', '2026-03-01T10:15:30.500Z'],
    ['2026-03-01T10:15:30.5Z', '2026-03-01T10:15:30.500Z'],
    ['2026-03-01T10:15:30.5+0100', '2026-03-01T09:15:30.500Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseLegacyTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([undefined, null, '', 'yesterday', '2026-13-45T99:99:99'])('%j is undefined', (text) => {
    expect(parseLegacyTimestamp(text)).toBeUndefined();
  });
});

describe('legacy availability: one fetch within 15 minutes, then 410 (already retrieved or expired)', () => {
  it('second fetch is 410 FetchLimitReachedError saying the captcha must be solved again', async () => {
    const { verificationId } = server().admin.createVerification();
    await client().legacyBotCheck.getAssessment(verificationId);
    const error = await client()
      .legacyBotCheck.getAssessment(verificationId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchLimitReachedError);
    expect(error).toMatchObject({ status: 410, api: 'legacy' });
    expect((error as Error).message).toMatch(
      /already retrieved or expired; the captcha must be solved again/,
    );
  });

  it('a fetch on one API counts for the other', async () => {
    const { verificationId } = server().admin.createVerification();
    await client().botCheck.getResult(verificationId);
    await expect(client().legacyBotCheck.getAssessment(verificationId)).rejects.toBeInstanceOf(
      FetchLimitReachedError,
    );
  });

  it('expired after 16 minutes is 410 too', async () => {
    const { verificationId } = server().admin.createVerification();
    server().admin.advanceClock(16 * MINUTE);
    await expect(client().legacyBotCheck.getAssessment(verificationId)).rejects.toMatchObject({
      status: 410,
    });
  });

  it('unfinished is 423', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    await expect(client().legacyBotCheck.getAssessment(verificationId)).rejects.toBeInstanceOf(
      VerificationNotFinishedError,
    );
  });
});

describe('legacy errors: 400, 403, 404, 422, 500 say what to do', () => {
  it('400 when the verificationId is not a UUID', async () => {
    const res = await rawRequest(server().url, 'GET', assessmentPath('not-a-uuid'), legacy(DEMO.projectKey));
    expect(res.status).toBe(400);
  });

  it('403 when the key is missing or invalid; 404 for a verification of another captcha', async () => {
    const { verificationId } = server().admin.createVerification();
    expect((await rawRequest(server().url, 'GET', assessmentPath(verificationId))).status).toBe(403);
    // A Bearer header is not how the legacy API authenticates.
    expect(
      (await rawRequest(server().url, 'GET', assessmentPath(verificationId), { key: DEMO.projectKey }))
        .status,
    ).toBe(403);
    await expect(client('wrong-secret').legacyBotCheck.getAssessment(verificationId)).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    await expect(client(DEMO.basicKey).legacyBotCheck.getAssessment(verificationId)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
  });

  it('422 when the widget mode differs from the captcha settings', async () => {
    const { verificationId } = server().admin.createVerification({ mode: 'INVISIBLE' });
    const error = await client()
      .legacyBotCheck.getAssessment(verificationId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toMatch(/mode of the widget differs/);
    // The current API has no mode rule.
    await expect(client().botCheck.getResult(verificationId)).resolves.toBeDefined();
  });

  it('500 is an InternalServerError and is not retried', async () => {
    const { verificationId } = server().admin.createVerification();
    server().admin.setFaults({ rate: 1, kinds: ['status500'], seed: 1 });
    await expect(client().legacyBotCheck.getAssessment(verificationId)).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(server().admin.requests()).toHaveLength(1);
  });
});

describe('legacy access token (deprecated): ?accessToken= instead of the header', () => {
  it('fetches with the access token issued with the verification, without any key', async () => {
    const { verificationId, accessToken } = server().admin.createVerification();
    const c = client(undefined);
    const result = await c.legacyBotCheck.getAssessment(verificationId, { accessToken });
    expect(result.verificationId).toBe(verificationId);
  });

  it('a wrong access token is 403, a malformed one 400', async () => {
    const { verificationId } = server().admin.createVerification();
    const other = server().admin.createVerification();
    await expect(
      client().legacyBotCheck.getAssessment(verificationId, { accessToken: other.accessToken }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    const error = await client()
      .legacyBotCheck.getAssessment(verificationId, { accessToken: 'short!' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/access token is malformed/);
    // Neither consumed the result.
    await expect(client().legacyBotCheck.getAssessment(verificationId)).resolves.toBeDefined();
  });

  it('the access token never appears in the request log', async () => {
    const { verificationId, accessToken } = server().admin.createVerification();
    await client().legacyBotCheck.getAssessment(verificationId, { accessToken });
    expect(JSON.stringify(server().admin.requests())).not.toContain(accessToken);
  });
});

describe('test verification ids (legacy API, legacy codes)', () => {
  it('...0000 gives a sample passed assessment with the test key', async () => {
    await expect(client(TEST_KEY).legacyBotCheck.getAssessment(IDS.passed)).resolves.toMatchObject({
      verificationPassed: true,
      reason: 'CALCULATED',
    });
    await expect(client().legacyBotCheck.getAssessment(IDS.passed)).rejects.toBeInstanceOf(
      VerificationNotFoundError,
    );
  });

  it.each([
    [IDS.notFound, 404],
    [IDS.notFinished, 423],
    [IDS.expired, 410],
    [IDS.fetchLimit, 410],
  ])('%s -> %s', async (id, status) => {
    const res = await rawRequest(server().url, 'GET', assessmentPath(id), legacy(TEST_KEY));
    expect(res.status).toBe(status);
  });
});
