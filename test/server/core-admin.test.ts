import { describe, expect, it } from 'vitest';
import { maskKey } from '../../src/core/redact.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const VALIDATIONS = '/taxvalidation/v1/validations';
const BODY = { countryCode: 'DE', rawValue: 'DE136695976' };

const admin = (method: string, path: string, body?: unknown) =>
  rawRequest(server().url, method, `/__admin${path}`, body === undefined ? {} : { body });

describe('GET /__admin/stats answers JSON counters', () => {
  it('counts requests by route and validations processed', async () => {
    await rawRequest(server().url, 'POST', VALIDATIONS, { key: TEST_KEY, body: BODY });
    await rawRequest(server().url, 'POST', VALIDATIONS, { body: BODY });
    const res = await admin('GET', '/stats');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toMatchObject({
      requestsByRoute: { [`POST ${VALIDATIONS}`]: 2 },
      validationsProcessed: 1,
      idempotentReplays: 0,
      webhooksSent: 0,
      now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });
});

describe('GET /__admin/requests lists API requests with keys masked', () => {
  it('never shows a whole key', async () => {
    for (const key of [TEST_KEY, DEMO.projectKey, DEMO.expiredKey]) {
      await rawRequest(server().url, 'POST', VALIDATIONS, { key, body: BODY });
    }
    await rawRequest(server().url, 'GET', '/legacy/anything', {
      key: DEMO.captchaSecret,
      header: 'svc-authorization',
    });
    const res = await admin('GET', '/requests');
    expect(res.status).toBe(200);
    const { requests } = res.body as { requests: Array<Record<string, unknown>> };
    expect(requests.map((r) => [r.status, r.key])).toEqual([
      [201, maskKey(TEST_KEY)],
      [201, maskKey(DEMO.projectKey)],
      [403, maskKey(DEMO.expiredKey)],
      [404, maskKey(DEMO.captchaSecret)],
    ]);
    expect(requests[0]).toMatchObject({ method: 'POST', path: VALIDATIONS, requestId: expect.any(String) });
    const text = JSON.stringify(res.body);
    for (const key of [TEST_KEY, DEMO.projectKey, DEMO.expiredKey, DEMO.captchaSecret]) {
      expect(text).not.toContain(key);
    }
  });

  it('does not log admin calls', async () => {
    await admin('GET', '/stats');
    expect(((await admin('GET', '/requests')).body as { requests: unknown[] }).requests).toEqual([]);
  });
});

describe('POST /__admin/reset restores the fixture', () => {
  it('clears counters, the request log and faults', async () => {
    await rawRequest(server().url, 'POST', VALIDATIONS, { key: TEST_KEY, body: BODY });
    await admin('POST', '/faults', { rate: 1, kinds: ['status500'], seed: 3 });
    const reset = await admin('POST', '/reset');
    expect(reset.status).toBe(204);
    const stats = (await admin('GET', '/stats')).body as {
      requestsByRoute: object;
      validationsProcessed: number;
    };
    // Only the stats call itself has been counted since the reset.
    expect(stats.requestsByRoute).toEqual({ 'GET /__admin/stats': 1 });
    expect(stats.validationsProcessed).toBe(0);
    expect(((await admin('GET', '/requests')).body as { requests: unknown[] }).requests).toEqual([]);
    const after = await rawRequest(server().url, 'POST', VALIDATIONS, { key: TEST_KEY, body: BODY });
    expect(after.status).toBe(201);
  });
});

describe('POST /__admin/clock advances or sets the server time', () => {
  it('advances by advanceMs', async () => {
    const before = server().admin.now();
    const res = await admin('POST', '/clock', { advanceMs: 86_400_000 });
    expect(res.status).toBe(200);
    const now = Date.parse((res.body as { now: string }).now);
    expect(now - before).toBeGreaterThanOrEqual(86_400_000);
    expect(now - before).toBeLessThan(86_400_000 + 5_000);
  });

  it('sets an absolute time (ISO string or epoch ms)', async () => {
    const iso = await admin('POST', '/clock', { now: '2030-01-01T00:00:00Z' });
    expect((iso.body as { now: string }).now.startsWith('2030-01-01T00:00:0')).toBe(true);
    const epoch = await admin('POST', '/clock', { now: Date.parse('2031-06-01T12:00:00Z') });
    expect((epoch.body as { now: string }).now.startsWith('2031-06-01T12:00:0')).toBe(true);
    expect(new Date(server().admin.now()).getUTCFullYear()).toBe(2031);
  });

  // The path of the first listed error: the field at fault, or '' when the body fits no form.
  for (const [bad, path] of [
    [{}, ''],
    [{ advanceMs: -1 }, 'advanceMs'],
    [{ advanceMs: 1.5 }, 'advanceMs'],
    [{ advanceMs: 'x' }, 'advanceMs'],
    [{ now: 'tomorrow' }, 'now'],
    [{ frozen: 'yes' }, 'frozen'],
    [{ advanceMs: 1, now: 0 }, ''],
  ] as const) {
    it(`422 for ${JSON.stringify(bad)}, naming ${path || 'the body'}`, async () => {
      const res = await admin('POST', '/clock', bad);
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((res.body as { errors: Array<{ path: string }> }).errors[0]?.path).toBe(path);
    });
  }
});

describe('POST /__admin/faults injects failures and validates its body', () => {
  it('makes API requests fail with the configured kind, then stops when the rate is 0', async () => {
    const set = await admin('POST', '/faults', { rate: 1, kinds: ['status503'], seed: 1 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ faults: { rate: 1, kinds: ['status503'], seed: 1 } });
    const failed = await rawRequest(server().url, 'POST', VALIDATIONS, { key: TEST_KEY, body: BODY });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('content-type')).toBe('application/problem+json');
    // Admin calls are never faulted.
    const stats = await admin('GET', '/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ faultsInjected: { status503: 1 } });
    await admin('POST', '/faults', { rate: 0 });
    const ok = await rawRequest(server().url, 'POST', VALIDATIONS, { key: TEST_KEY, body: BODY });
    expect(ok.status).toBe(201);
  });

  it('the same seed gives the same fault sequence', async () => {
    const run = async () => {
      await admin('POST', '/faults', { rate: 0.5, kinds: ['status500', 'status503'], seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (await rawRequest(server().url, 'GET', '/taxvalidation/v1/validation-results/x')).status,
        );
      }
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  for (const bad of [
    { rate: 2 },
    { rate: -0.1 },
    { rate: 1, kinds: ['explode'] },
    { rate: 1, seed: 1.5 },
    { x: 1 },
  ]) {
    it(`422 for ${JSON.stringify(bad)}`, async () => {
      const res = await admin('POST', '/faults', bad);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        status: 422,
        errors: expect.arrayContaining([expect.objectContaining({ message: expect.any(String) })]),
      });
    });
  }

  it('400 for a body that is not JSON', async () => {
    const res = await fetch(`${server().url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{rate:',
    });
    expect(res.status).toBe(400);
  });
});
