import { describe, expect, it } from 'vitest';
import { callTimeoutError } from '../../src/core/attempt-timer.js';
import { ConnectionError, createApiError } from '../../src/core/errors/error-classes.js';
import { type PatientSettings, patiently } from '../../src/core/patience.js';
import { RETRY_SAFE } from '../../src/core/retry.js';

const status = (code: number, retryAfterSeconds?: number) =>
  createApiError({ status: code, method: 'GET', path: '/platform/v1/events', retryAfterSeconds });

/** Settings on a fake clock that sleeps move; `random` at its top so every wait is its ceiling. */
function settings(over: Partial<PatientSettings> = {}) {
  let now = 0;
  const slept: number[] = [];
  const s: PatientSettings = {
    policy: RETRY_SAFE,
    maxRetries: 2,
    retryForMs: 60_000,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    random: () => 0.999,
    now: () => now,
    ...over,
  };
  return { s, slept };
}

/** An attempt that fails with each of `failures` in turn, then answers 'ok'; counts its calls. */
function attempts(failures: unknown[]) {
  const calls: Array<{ maxRetries?: number }> = [];
  const attempt = async (options: { maxRetries?: number }) => {
    calls.push(options);
    const failure = failures[calls.length - 1];
    if (failure !== undefined) throw failure;
    return 'ok';
  };
  return { attempt, calls };
}

describe('429 and 5xx are retried past maxRetries, with growing waits, until retryForMs has passed', () => {
  it('ten 429s without Retry-After: every one retried, waits doubling to the 8 s cap', async () => {
    const { s, slept } = settings();
    const { attempt, calls } = attempts(Array.from({ length: 10 }, () => status(429)));
    await expect(patiently(attempt, s)).resolves.toBe('ok');
    expect(calls).toHaveLength(11);
    // Each attempt is one HTTP attempt: the pipeline's own retries are off.
    expect(calls.every((c) => c.maxRetries === 0)).toBe(true);
    expect(slept).toEqual([499, 999, 1998, 3996, 7992, 7992, 7992, 7992, 7992, 7992]);
  });

  it('gives up once retryForMs has passed since the first failure: the last failure as it came', async () => {
    const { s, slept } = settings({ retryForMs: 10_000 });
    const failures = Array.from({ length: 50 }, () => status(503));
    const { attempt, calls } = attempts(failures);
    const error = await patiently(attempt, s).catch((e: unknown) => e);
    expect(error).toBe(failures[calls.length - 1]);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10_000);
    expect(slept.slice(0, -1).reduce((a, b) => a + b, 0)).toBeLessThan(10_000);
  });

  it('Retry-After wins over the backoff', async () => {
    const { s, slept } = settings();
    const { attempt } = attempts([status(429, 3), status(429, 1)]);
    await patiently(attempt, s);
    expect(slept).toEqual([3000, 1000]);
  });

  it('retryForMs 0 keeps only maxRetries', async () => {
    const { s } = settings({ retryForMs: 0 });
    const { attempt, calls } = attempts(Array.from({ length: 5 }, () => status(429)));
    await expect(patiently(attempt, s)).rejects.toBeInstanceOf(Error);
    expect(calls).toHaveLength(3);
  });
});

describe('other failures keep the maxRetries rule', () => {
  it('maxRetries 0 retries nothing, a 429 neither', async () => {
    const { s } = settings({ maxRetries: 0 });
    const { attempt, calls } = attempts([status(429)]);
    await expect(patiently(attempt, s)).rejects.toBeInstanceOf(Error);
    expect(calls).toHaveLength(1);
  });

  it('a broken connection is retried maxRetries times, not for retryForMs', async () => {
    const { s } = settings();
    const broken = () => new ConnectionError('reset', true);
    const { attempt, calls } = attempts([broken(), broken(), broken(), broken()]);
    await expect(patiently(attempt, s)).rejects.toBeInstanceOf(ConnectionError);
    expect(calls).toHaveLength(3);
  });

  it('a 400 is not retried', async () => {
    const { s } = settings();
    const { attempt, calls } = attempts([status(400)]);
    await expect(patiently(attempt, s)).rejects.toMatchObject({ status: 400 });
    expect(calls).toHaveLength(1);
  });
});

describe('Retry-After as an HTTP date is honoured too', () => {
  it('the pipeline turns a date into retryAfterSeconds, which patience waits', async () => {
    const { SvcClient } = await import('../../src/client.js');
    const at = Date.now();
    let calls = 0;
    const slept: number[] = [];
    const client = new SvcClient({
      baseUrl: 'http://127.0.0.1:1',
      apiKey: 'ak_demo_project',
      maxRetries: 0,
      sleep: async (ms: number) => {
        slept.push(ms);
      },
      transport: {
        request: async () => {
          calls += 1;
          if (calls > 1) return { status: 200, headers: {}, body: JSON.stringify(PAGE) };
          return {
            status: 429,
            headers: { 'retry-after': new Date(at + 3000).toUTCString() },
            body: '{"detail":"slow down"}',
          };
        },
      },
    });
    await client.audit.listEvents({}, { retryForMs: 60_000, maxRetries: 1 });
    expect(calls).toBe(2);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(1000);
    expect(slept[0]).toBeLessThanOrEqual(3000);
  });
});

const PAGE = {
  content: [],
  page: 0,
  pageSize: 100,
  totalElements: 0,
  totalPages: 0,
  nextCursor: null,
  from: '2026-01-01T00:00:00.000Z',
  to: '2026-01-02T00:00:00.000Z',
};

describe("a deadline that runs out is reported as the call's whole deadline", () => {
  it('the last attempt was given what was left of it (996 ms), the error says 1000 ms', async () => {
    const { s } = settings({ deadlineMs: 1000, maxRetries: 0 });
    const attempt = async () => {
      throw callTimeoutError('deadline', 996, 'GET /platform/v1/events', 1);
    };
    await expect(patiently(attempt, s)).rejects.toMatchObject({
      message: 'Deadline of 1000 ms passed: GET /platform/v1/events (1 attempt)',
      timeoutMs: 1000,
      phase: 'deadline',
    });
  });
});
