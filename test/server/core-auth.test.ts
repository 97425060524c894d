import { describe, expect, it } from 'vitest';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const VALIDATIONS = '/taxvalidation/v1/validations';
const BODY = { countryCode: 'DE', rawValue: 'DE136695976' };
const TITLES: Record<number, string> = { 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden' };

async function expectProblem(
  res: Awaited<ReturnType<typeof rawRequest>>,
  status: number,
  detail: string | undefined,
): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.headers.get('request-id')).toMatch(/^req_\w+$/);
  expect(res.body).toEqual({
    type: expect.stringMatching(/^https?:\/\//),
    title: TITLES[status] ?? expect.any(String),
    status,
    detail: detail ?? expect.any(String),
  });
}

describe('tax validation: 401 without a key, 403 for an unknown or expired key, 402 for a locked project', () => {
  it('401 without a key', async () => {
    await expectProblem(
      await rawRequest(server().url, 'POST', VALIDATIONS, { body: BODY }),
      401,
      'API key missing',
    );
  });

  it('401 when the Authorization header is not a bearer key', async () => {
    const res = await fetch(server().url + VALIDATIONS, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('a:b').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(BODY),
    });
    expect(res.status).toBe(401);
  });

  it('403 with ak_expired_key', async () => {
    const res = await rawRequest(server().url, 'POST', VALIDATIONS, { key: DEMO.expiredKey, body: BODY });
    await expectProblem(res, 403, 'API key expired');
  });

  it('403 with an unknown key', async () => {
    const res = await rawRequest(server().url, 'POST', VALIDATIONS, {
      key: 'ak_not_a_known_key',
      body: BODY,
    });
    await expectProblem(res, 403, 'API key invalid');
  });

  it('402 with ak_locked_project', async () => {
    const res = await rawRequest(server().url, 'POST', VALIDATIONS, { key: DEMO.lockedKey, body: BODY });
    await expectProblem(res, 402, 'Project is locked');
  });

  it('403 for keys that belong to other APIs (agency key, legacy captcha secret)', async () => {
    for (const key of [DEMO.agencyKey, DEMO.captchaSecret]) {
      const res = await rawRequest(server().url, 'POST', VALIDATIONS, { key, body: BODY });
      expect(res.status, key).toBe(403);
    }
  });

  it('accepts the project key and the documented test key', async () => {
    for (const key of [DEMO.projectKey, TEST_KEY]) {
      const res = await rawRequest(server().url, 'POST', VALIDATIONS, { key, body: BODY });
      expect(res.status, key).toBe(201);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
    }
  });

  it('402 when the plan lacks scheduled validation', async () => {
    const res = await rawRequest(server().url, 'POST', '/taxvalidation/v1/schedules', {
      key: DEMO.basicKey,
      body: { ...BODY, frequency: 'MONTHLY' },
    });
    expect(res.status).toBe(402);
  });
});

describe('bot-check APIs: 403 without a key', () => {
  it('GET /captcha/v2/verifications/{id}/results answers 403 without a key', async () => {
    const res = await rawRequest(
      server().url,
      'GET',
      '/captcha/v2/verifications/00000000-0000-0000-0000-000000000001/results',
    );
    await expectProblem(res, 403, undefined);
  });

  it('GET /verifications/{id}/assessments (legacy) answers 403 without svc-authorization', async () => {
    const res = await rawRequest(
      server().url,
      'GET',
      '/verifications/00000000-0000-0000-0000-000000000001/assessments',
    );
    await expectProblem(res, 403, undefined);
  });
});
