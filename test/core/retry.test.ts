import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { SvcClientOptions } from '../../src/client-options.js';
import {
  AbortError,
  ApiError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  TimeoutError,
} from '../../src/core/errors/index.js';
import { type CallSpec, defaultSleep, HttpClient } from '../../src/core/http.js';
import {
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  RETRY_IDEMPOTENT_DELETE,
  RETRY_SAFE,
  RETRY_UNSENT_ONLY,
} from '../../src/core/retry.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { seededRandom } from '../../src/server/random.js';
import { failure } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { closedPort, startHangingServer } from './local-servers.js';

const ORIGIN = 'http://api.svc.test';
const server = useReferenceServer();

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());
// The reference server lives on loopback; nock only blocks other hosts.
beforeAll(() => nock.enableNetConnect(/127\.0\.0\.1/));

/** A client whose waits are recorded instead of slept. */
function recording(options: SvcClientOptions = {}) {
  const delays: number[] = [];
  const client = new SvcClient({
    baseUrl: ORIGIN,
    fetch: globalThis.fetch,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  });
  return { client, delays };
}

const post = (retry: CallSpec['retry']): CallSpec => ({ method: 'POST', path: '/op', body: {}, retry });

describe('backoff is 0.5 s × 2^(n−1), capped at 8 s, with full jitter', () => {
  it('doubles from 500 ms up to the 8 s cap (ceilings seen with random → 1)', () => {
    const top = () => 1 - Number.EPSILON;
    const ceilings = [1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, undefined, { random: top }) + 1);
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('draws uniformly between 0 and the ceiling', () => {
    expect(backoffDelay(3, undefined, { random: () => 0 })).toBe(0);
    expect(backoffDelay(3, undefined, { random: () => 0.5 })).toBe(1000);
    expect(backoffDelay(3, undefined, { random: () => 0.25 })).toBe(500);
  });

  it('the client waits those delays between attempts', async () => {
    nock(ORIGIN).post('/op').times(7).reply(503, { detail: 'down' });
    const { client, delays } = recording({ maxRetries: 6 });
    const error = await failure(client.http.call(post(RETRY_SAFE)));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });
});

describe('Retry-After (seconds or HTTP date) wins over backoff, capped at 60 s', () => {
  it('parses delta seconds and HTTP dates', () => {
    const now = () => Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('caps at 60 s and ignores jitter', () => {
    expect(backoffDelay(1, '120', { random: () => 0 })).toBe(60_000);
    expect(backoffDelay(1, '5', { random: () => 0 })).toBe(5000);
    expect(backoffDelay(2, 'garbage', { random: () => 0.5 })).toBe(500);
  });

  it('the client waits the seconds a 503 asks for', async () => {
    nock(ORIGIN).post('/op').reply(503, '', { 'Retry-After': '3' }).post('/op').reply(200, { ok: 1 });
    const { client, delays } = recording();
    const res = await client.http.call(post(RETRY_SAFE));
    expect(res.data).toEqual({ ok: 1 });
    expect(delays).toEqual([3000]);
  });

  it('the client waits until an HTTP date on a 429', async () => {
    const at = new Date(Date.now() + 10_000).toUTCString();
    nock(ORIGIN).post('/op').reply(429, '', { 'Retry-After': at }).post('/op').reply(200, {});
    const { client, delays } = recording();
    await client.http.call(post(RETRY_SAFE));
    expect(delays).toHaveLength(1);
    // HTTP dates have whole seconds: the wait is between 9 and 10 s from when the header was made.
    expect(delays[0]).toBeGreaterThan(8000);
    expect(delays[0]).toBeLessThanOrEqual(10_000);
  });

  it('a Retry-After of 10 minutes waits 60 s', async () => {
    nock(ORIGIN).post('/op').reply(503, '', { 'Retry-After': '600' }).post('/op').reply(200, {});
    const { client, delays } = recording();
    await client.http.call(post(RETRY_SAFE));
    expect(delays).toEqual([60_000]);
  });
});

describe('a 503 is retried and the retry can succeed', () => {
  it('against the reference server with injected faults (undici transport)', async () => {
    const delays: number[] = [];
    const client = new SvcClient({
      baseUrl: server().url,
      apiKey: TEST_KEY,
      transport: createUndiciTransport(),
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
        server().admin.setFaults(undefined);
      },
    });
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
    await client.close();
    expect(outcome.kind).toBe('completed');
    expect(delays).toEqual([250]);
    expect(
      server()
        .admin.requests()
        .map((r) => r.status),
    ).toEqual([503, 201]);
  });
});

describe('maxRetries bounds the number of attempts', () => {
  it('makes 1 + maxRetries attempts, then throws the last error', async () => {
    const scope = nock(ORIGIN).post('/op').times(3).reply(500, { detail: 'boom' });
    const { client, delays } = recording({ maxRetries: 2 });
    const error = await failure(client.http.call(post(RETRY_SAFE)));
    expect(error.message).toBe('500 Internal Server Error: POST /op (boom)');
    expect(delays).toHaveLength(2);
    expect(scope.isDone()).toBe(true);
  });

  it('a per-call maxRetries wins over the client default', async () => {
    nock(ORIGIN).post('/op').reply(500, {});
    const { client, delays } = recording({ maxRetries: 5 });
    await failure(client.http.call({ ...post(RETRY_SAFE), options: { maxRetries: 0 } }));
    expect(delays).toEqual([]);
  });

  it('the default is 2 retries', async () => {
    nock(ORIGIN).post('/op').times(3).reply(503, {});
    const { client, delays } = recording();
    await failure(client.http.call(post(RETRY_SAFE)));
    expect(delays).toHaveLength(2);
  });
});

describe('RETRY_SAFE retries connection errors, timeouts, 408, 429 and 5xx, never other 4xx', () => {
  it('classifies outcomes', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryable(RETRY_SAFE, { status })).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 410, 422, 423])
      expect(isRetryable(RETRY_SAFE, { status })).toBe(false);
    expect(isRetryable(RETRY_SAFE, { error: new ConnectionError('x', true) })).toBe(true);
    expect(isRetryable(RETRY_SAFE, { error: new TimeoutError('x', 1) })).toBe(true);
    expect(isRetryable(RETRY_SAFE, { error: new AbortError() })).toBe(false);
  });

  it('a 422 is thrown at once', async () => {
    nock(ORIGIN).post('/op').reply(422, { detail: 'bad' });
    const { client, delays } = recording();
    await failure(client.http.call(post(RETRY_SAFE)));
    expect(delays).toEqual([]);
  });

  it('a reset after the request was sent is retried', async () => {
    nock(ORIGIN).post('/op').replyWithError({ code: 'ECONNRESET' }).post('/op').reply(200, {});
    const { client, delays } = recording();
    expect((await client.http.call(post(RETRY_SAFE))).status).toBe(200);
    expect(delays).toEqual([250]);
  });
});

describe('RETRY_UNSENT_ONLY retries only a connection that failed before the request was written', () => {
  it('does not retry a 500', async () => {
    const scope = nock(ORIGIN).post('/op').reply(500, {});
    const { client, delays } = recording();
    expect(await failure(client.http.call(post(RETRY_UNSENT_ONLY)))).toBeInstanceOf(InternalServerError);
    expect(delays).toEqual([]);
    expect(scope.isDone()).toBe(true);
  });

  it('does not retry a reset after send (fetch transport)', async () => {
    nock(ORIGIN).post('/op').replyWithError({ code: 'ECONNRESET' });
    const { client, delays } = recording();
    const error = await failure(client.http.call(post(RETRY_UNSENT_ONLY)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).requestSent).toBe(true);
    expect(delays).toEqual([]);
  });

  it('does not retry a reset after send (reference server, undici transport)', async () => {
    const client = new SvcClient({
      baseUrl: server().url,
      transport: createUndiciTransport(),
      sleep: async () => {},
    });
    server().admin.setFaults({ rate: 1, kinds: ['reset'], seed: 1 });
    const error = await failure(
      client.http.call({
        method: 'POST',
        path: '/taxvalidation/v1/validations',
        body: { countryCode: 'DE', rawValue: 'DE136695976' },
        auth: { scheme: 'bearer', key: TEST_KEY },
        retry: RETRY_UNSENT_ONLY,
      }),
    );
    await client.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).requestSent).toBe(true);
    expect(server().admin.stats().requestsByRoute['POST /taxvalidation/v1/validations']).toBe(1);
  });

  it('does not retry a timeout', async () => {
    const hanging = await startHangingServer();
    const client = new SvcClient({ baseUrl: hanging.url, timeoutMs: 50, sleep: async () => {} });
    const error = await failure(client.http.call(post(RETRY_UNSENT_ONLY)));
    await client.close();
    await hanging.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(hanging.seen).toHaveLength(1);
  });

  it('retries a refused connection (nock)', async () => {
    nock(ORIGIN)
      .post('/op')
      .times(2)
      .replyWithError({ code: 'ECONNREFUSED' })
      .post('/op')
      .reply(201, { created: true });
    const { client, delays } = recording();
    const res = await client.http.call(post(RETRY_UNSENT_ONLY));
    expect(res.data).toEqual({ created: true });
    expect(delays).toEqual([250, 500]);
  });

  it('retries a refused connection (real closed port, undici transport)', async () => {
    const port = await closedPort();
    const { client, delays } = recording({
      baseUrl: `http://127.0.0.1:${port}`,
      transport: createUndiciTransport(),
      maxRetries: 3,
    });
    const error = await failure(client.http.call(post(RETRY_UNSENT_ONLY)));
    await client.close();
    expect((error as ConnectionError).requestSent).toBe(false);
    expect(delays).toEqual([250, 500, 1000]);
  });
});

describe('RETRY_IDEMPOTENT_DELETE: a 404 answering a retry after a lost response counts as deleted', () => {
  const del: CallSpec = {
    method: 'DELETE',
    path: '/schedules/s1',
    retry: RETRY_IDEMPOTENT_DELETE,
    successOnRetry: [404],
  };

  it('returns the 404 of the retry as a success', async () => {
    nock(ORIGIN)
      .delete('/schedules/s1')
      .replyWithError({ code: 'ECONNRESET' })
      .delete('/schedules/s1')
      .reply(404, { detail: 'no such schedule' });
    const { client, delays } = recording();
    const res = await client.http.call(del);
    expect(res.status).toBe(404);
    expect(res.data).toBeUndefined();
    expect(delays).toEqual([250]);
  });

  it('a 404 on the first attempt is still NotFoundError', async () => {
    nock(ORIGIN).delete('/schedules/s1').reply(404, { detail: 'no such schedule' });
    const { client } = recording();
    expect(await failure(client.http.call(del))).toBeInstanceOf(NotFoundError);
  });

  it('does not retry a 429 or a 408', () => {
    expect(isRetryable(RETRY_IDEMPOTENT_DELETE, { status: 429 })).toBe(false);
    expect(isRetryable(RETRY_IDEMPOTENT_DELETE, { status: 408 })).toBe(false);
    expect(isRetryable(RETRY_IDEMPOTENT_DELETE, { status: 503 })).toBe(true);
  });

  it('end to end: the reference server deletes, drops the response, and the retry gets 404', async () => {
    const client = new SvcClient({
      baseUrl: server().url,
      apiKey: TEST_KEY,
      transport: createUndiciTransport(),
      sleep: async () => server().admin.setFaults(undefined),
    });
    const created = await client.tax.createSchedule({
      countryCode: 'DE',
      rawValue: 'DE136695976',
      frequency: 'MONTHLY',
    });
    // The fault sequence draws: rate check, kind, then before/after; pick a seed that resets after.
    const seed = [...Array(100).keys()].find((s) => {
      const r = seededRandom(s);
      r();
      r();
      return r() >= 0.5;
    });
    server().admin.setFaults({ rate: 1, kinds: ['reset'], seed: seed ?? 0 });
    const deleted = await client.tax.deleteSchedule(created.scheduleId);
    await client.close();
    expect(deleted).toEqual({ scheduleId: created.scheduleId, alreadyDeleted: true });
    expect(server().admin.stats().requestsByRoute['DELETE /taxvalidation/v1/schedules/:scheduleId']).toBe(2);
  });
});

describe('the total deadline stops retries', () => {
  function pipeline(
    deadlineMs: number,
    responses: Array<{ status: number; headers?: Record<string, string> }>,
  ) {
    let clock = 0;
    const delays: number[] = [];
    let calls = 0;
    const http = new HttpClient({
      baseUrl: new URL(ORIGIN),
      transport: {
        request: async () => {
          const r = responses[Math.min(calls++, responses.length - 1)]!;
          return { status: r.status, headers: r.headers ?? {}, body: '' };
        },
      },
      timeoutMs: undefined,
      maxRetries: 10,
      deadlineMs,
      userAgent: 'test',
      logger: undefined,
      onRequest: undefined,
      onResponse: undefined,
      secrets: [],
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
      random: () => 0.5,
      now: () => clock,
    });
    return { http, delays, calls: () => calls };
  }

  it('throws the last error when the next wait would pass the deadline', async () => {
    const { http, delays, calls } = pipeline(2000, [{ status: 503 }]);
    const error = await failure(http.call(post(RETRY_SAFE)));
    expect(error).toBeInstanceOf(InternalServerError);
    // 250 + 500 + 1000 = 1750; the next wait (2000) would end past 2000.
    expect(delays).toEqual([250, 500, 1000]);
    expect(calls()).toBe(4);
  });

  it('does not wait for a Retry-After that ends past the deadline', async () => {
    const { http, delays } = pipeline(10_000, [{ status: 503, headers: { 'retry-after': '30' } }]);
    expect(await failure(http.call(post(RETRY_SAFE)))).toBeInstanceOf(ApiError);
    expect(delays).toEqual([]);
  });

  it('a per-call deadline wins over the client default', async () => {
    const { http, delays } = pipeline(60_000, [{ status: 503 }]);
    await failure(http.call({ ...post(RETRY_SAFE), options: { deadlineMs: 600 } }));
    expect(delays).toEqual([250]);
  });

  it('bounds a hanging attempt by the time left', async () => {
    const hanging = await startHangingServer();
    const client = new SvcClient({
      baseUrl: hanging.url,
      deadlineMs: 80,
      transport: createFetchTransport(globalThis.fetch),
    });
    const error = await failure(client.http.call({ method: 'GET', path: '/slow', retry: RETRY_SAFE }));
    await hanging.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBeLessThanOrEqual(80);
  });
});

describe('an abort during the wait between attempts ends the call with AbortError', () => {
  it('stops waiting at once', async () => {
    nock(ORIGIN).post('/op').reply(503, {});
    const controller = new AbortController();
    const client = new SvcClient({
      baseUrl: ORIGIN,
      fetch: globalThis.fetch,
      sleep: (ms, signal) => {
        const waiting = defaultSleep(ms * 1000, signal);
        controller.abort();
        return waiting;
      },
    });
    const error = await failure(
      client.http.call({ ...post(RETRY_SAFE), options: { signal: controller.signal } }),
    );
    expect(error).toBeInstanceOf(AbortError);
  });
});
