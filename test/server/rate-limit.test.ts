import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { rawRequest } from '../helpers/server.js';

// The limiter measures real time: the server takes it from an injected clock, moved by the test.
let now = 0;
let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ now: () => now });
});
beforeEach(() => {
  server.admin.reset();
  now = 0;
});
afterAll(() => server.close());

const VALIDATIONS = '/taxvalidation/v1/validations';
const validate = () =>
  rawRequest(server.url, 'POST', VALIDATIONS, {
    key: TEST_KEY,
    body: { countryCode: 'DE', rawValue: 'DE136695976' },
  });
const admin = (method: string, path: string, body?: unknown) =>
  rawRequest(server.url, method, `/__admin${path}`, body === undefined ? {} : { body });

describe('POST /__admin/rate-limit answers API requests past perSecond with 429 and the problem body', () => {
  it('2 per second, burst 2: two pass, the third is 429 with Retry-After and is not processed; a second later one passes', async () => {
    const set = await admin('POST', '/rate-limit', { perSecond: 2 });
    expect(set.body).toEqual({ rateLimit: { perSecond: 2, burst: 2, retryAfter: true } });
    expect((await validate()).status).toBeLessThan(300);
    expect((await validate()).status).toBeLessThan(300);
    const refused = await validate();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.body).toMatchObject({
      status: 429,
      detail: 'Rate limit of 2 requests per second exceeded',
    });
    now += 500;
    expect((await validate()).status).toBeLessThan(300);
    expect((await validate()).status).toBe(429);
    const stats = server.admin.stats();
    expect(stats.rateLimited).toBe(2);
    // Refused requests are never processed: only the three that passed were validated.
    expect(stats.validationsProcessed).toBe(3);
  });

  it('retryAfter false: the 429 has no Retry-After', async () => {
    await admin('POST', '/rate-limit', { perSecond: 1, burst: 1, retryAfter: false });
    await validate();
    const refused = await validate();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
  });

  it('Retry-After says the whole seconds until a request would pass', async () => {
    await admin('POST', '/rate-limit', { perSecond: 0.25, burst: 1 });
    await validate();
    expect((await validate()).headers.get('retry-after')).toBe('4');
    now += 3000;
    expect((await validate()).headers.get('retry-after')).toBe('1');
  });

  it('admin requests are never limited', async () => {
    await admin('POST', '/rate-limit', { perSecond: 1, burst: 1 });
    for (let i = 0; i < 5; i++) expect((await admin('GET', '/stats')).status).toBe(200);
  });

  it('perSecond 0 and reset switch it off', async () => {
    await admin('POST', '/rate-limit', { perSecond: 1, burst: 1 });
    await validate();
    expect((await validate()).status).toBe(429);
    expect((await admin('POST', '/rate-limit', { perSecond: 0 })).body).toEqual({ rateLimit: null });
    expect((await validate()).status).toBeLessThan(300);
    await admin('POST', '/rate-limit', { perSecond: 1, burst: 1 });
    await validate();
    await admin('POST', '/reset');
    expect((await validate()).status).toBeLessThan(300);
    expect(server.admin.stats().rateLimited).toBe(0);
  });

  it('a bad body is 422 naming the field', async () => {
    const res = await admin('POST', '/rate-limit', { perSecond: -1 });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('perSecond');
  });
});
