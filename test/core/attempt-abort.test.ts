import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { TimeoutError } from '../../src/core/errors/index.js';
import { RETRY_UNSENT_ONLY } from '../../src/core/retry.js';
import {
  ATTEMPT_ABORT,
  ATTEMPT_ABORTER,
  type AttemptAbortAware,
} from '../../src/core/transport/attempt-abort.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import type { Transport, TransportRequest } from '../../src/core/transport/types.js';
import { createDefaultTransport } from '../../src/node/transport/default.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { UndiciAbort } from '../../src/node/transport/undici-abort.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { failure } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { type LocalServer, startHangingServer } from './local-servers.js';

const ZERO_ID = '00000000-0000-0000-0000-000000000000';
const server = useReferenceServer();
const clients: SvcClient[] = [];
const locals: LocalServer[] = [];

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(locals.splice(0).map((s) => s.close()));
});

function client(baseUrl: string, transport?: Transport): SvcClient {
  const c = new SvcClient({ baseUrl, apiKey: TEST_KEY, maxRetries: 0, ...(transport && { transport }) });
  clients.push(c);
  return c;
}

/** Settles `promise` into a flag, so a test can see that it is still pending. */
function watch(promise: Promise<unknown>): { settled: boolean; result: Promise<unknown> } {
  const state = { settled: false, result: promise };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe("an undici request's own abort fires each listener once, with an AbortError reason", () => {
  it('calls each listener once; a removed one never; one added after the abort never', () => {
    const abort = new UndiciAbort();
    const calls: string[] = [];
    const first = () => calls.push('first');
    const second = () => calls.push('second');
    const removed = () => calls.push('removed');
    abort.on('abort', first).once('abort', removed).once('abort', second).on('close', removed);
    abort.removeListener('abort', removed);
    expect(abort.aborted).toBe(false);
    abort.abort();
    abort.abort();
    abort.on('abort', () => calls.push('late'));
    expect(calls).toEqual(['first', 'second']);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toMatchObject({ name: 'AbortError' });
  });
});

describe('a custom transport gets a real AbortSignal that the per-attempt timeout fires', () => {
  it('times out at the limit and not before (injected clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const seen: TransportRequest[] = [];
    const hanging: Transport = {
      request: (req) =>
        new Promise((_resolve, reject) => {
          seen.push(req);
          req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true });
        }),
    };
    const call = watch(
      client('http://127.0.0.1:9', hanging).http.call({
        method: 'GET',
        path: '/slow',
        retry: RETRY_UNSENT_ONLY,
        options: { timeoutMs: 250 },
      }),
    );
    await vi.advanceTimersByTimeAsync(249);
    expect(call.settled).toBe(false);
    expect(seen[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failure(call.result);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('No answer for 250 ms: GET /slow (1 attempt)');
  });
});

describe('the undici transport ends an attempt at its per-attempt limit without an AbortSignal', () => {
  it('getResult against a server that never answers: pending at 4999 ms, TimeoutError at 5000 ms', async () => {
    const silent = await startHangingServer();
    locals.push(silent);
    let request: TransportRequest | undefined;
    const undici = createUndiciTransport();
    const send = undici.request.bind(undici);
    undici.request = (req) => {
      request = req;
      return send(req);
    };
    const c = client(silent.url, undici);
    // undici makes one AbortController when it loads: loaded before counting.
    await import('undici');
    let made = 0;
    vi.stubGlobal(
      'AbortController',
      class extends AbortController {
        constructor() {
          super();
          made++;
        }
      },
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = watch(c.botCheck.getResult(ZERO_ID));
    await silent.received;
    await vi.advanceTimersByTimeAsync(4999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failure(call.result);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(5000);
    // undici listened on its own abort: no AbortController was made for the attempt.
    const abort = (request as unknown as { [ATTEMPT_ABORT]: UndiciAbort })[ATTEMPT_ABORT];
    expect(abort).toBeInstanceOf(UndiciAbort);
    expect(abort.aborted).toBe(true);
    expect(made).toBe(0);
  });
});

describe("only the library's undici transport goes without a real AbortSignal", () => {
  it('the default transport: not for a bulk page read (node:http), which gets a real one', () => {
    const transport = createDefaultTransport({}, 'node') as Transport & AttemptAbortAware;
    const request: TransportRequest = {
      method: 'GET',
      url: 'http://127.0.0.1:9/x',
      headers: {},
      signal: new AbortController().signal,
    };
    expect(transport[ATTEMPT_ABORTER]?.(request)).toBeInstanceOf(UndiciAbort);
    const bulk = { ...request, bodyBuffer: (size: number) => new Uint8Array(size) };
    expect(transport[ATTEMPT_ABORTER]?.(bulk)).toBeUndefined();
    expect((createDefaultTransport({}, 'deno') as AttemptAbortAware)[ATTEMPT_ABORTER]).toBeUndefined();
    expect((createFetchTransport(globalThis.fetch) as AttemptAbortAware)[ATTEMPT_ABORTER]).toBeUndefined();
  });
});

describe("a caller's AbortSignal keeps no listener once its calls end", () => {
  it('none left after 10,000 getResult calls on the undici transport, 64 in flight', async () => {
    const c = client(server().url);
    const controller = new AbortController();
    let next = 0;
    const worker = async () => {
      while (next < 10_000) {
        next++;
        await c.botCheck.getResult(ZERO_ID, { signal: controller.signal });
        expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(64);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    expect(next).toBe(10_000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  }, 60_000);
});
