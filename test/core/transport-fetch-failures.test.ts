import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { ConnectionError, SvcError, TransportError } from '../../src/core/errors/index.js';
import { RETRY_SAFE, RETRY_UNSENT_ONLY } from '../../src/core/retry.js';
import { failure } from '../helpers/client.js';

// nock patches the global fetch but cannot see undici's own `request`: these failure paths are
// exercised on the fetch transport only (the contract suite covers both against a real server).
const ORIGIN = 'http://api.svc.test';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function client(): SvcClient {
  return new SvcClient({ baseUrl: ORIGIN, fetch: globalThis.fetch, maxRetries: 0 });
}

const get = { method: 'GET' as const, path: '/thing', retry: RETRY_UNSENT_ONLY };

describe('network failures become ConnectionError with requestSent set honestly', () => {
  const cases: Array<{ code: string; sent: boolean }> = [
    { code: 'ECONNREFUSED', sent: false },
    { code: 'ENOTFOUND', sent: false },
    { code: 'EAI_AGAIN', sent: false },
    { code: 'EHOSTUNREACH', sent: false },
    { code: 'ECONNRESET', sent: true },
    { code: 'EPIPE', sent: true },
  ];
  for (const c of cases) {
    it(`${c.code} → requestSent ${c.sent}`, async () => {
      nock(ORIGIN).get('/thing').replyWithError({ code: c.code, message: 'low level failure' });
      const error = await failure(client().http.call(get));
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).requestSent).toBe(c.sent);
      expect(error.message).toBe(`Connection to api.svc.test failed: ${c.code}`);
      expect(error.cause).toBeDefined();
    });
  }

  it.each([
    [
      'Deno: a TypeError with the failure as cause',
      new TypeError('fetch failed', { cause: new Error('tcp') }),
    ],
    [
      'workerd: an Error marked retryable',
      Object.assign(new Error('Network connection lost.'), { retryable: true }),
    ],
  ])('a network failure without a code counts as sent (the safe assumption): %s', async (_, thrown) => {
    nock(ORIGIN).get('/thing').replyWithError(thrown);
    const error = await failure(client().http.call(get));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).requestSent).toBe(true);
  });
});

describe('a local failure is a TransportError, not a ConnectionError: never retried', () => {
  it.each([
    ['an error without a code', new Error('something odd')],
    ['a TypeError without a cause (workerd: Illegal invocation)', new TypeError('Illegal invocation')],
    ['Deno without --allow-net', Object.assign(new Error('Requires net access'), { name: 'NotCapable' })],
    ['a code that is not the network', { code: 'ERR_INVALID_URL', message: 'Invalid URL' }],
    ['a malformed response (parser error)', { code: 'HPE_INVALID_CONSTANT', message: 'Expected HTTP/' }],
  ])('%s', async (_, thrown) => {
    nock(ORIGIN).get('/thing').times(3).replyWithError(thrown);
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
    };
    const c = new SvcClient({ baseUrl: ORIGIN, fetch: globalThis.fetch, maxRetries: 2, sleep });
    const error = await failure(c.http.call({ ...get, retry: RETRY_SAFE }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as TransportError).code).toBe('transport');
    expect(error.message).toMatch(/^Request to api\.svc\.test could not be made: /);
    expect(delays).toEqual([]);
  });
});

describe('response headers are read case-insensitively', () => {
  it('takes the request id from Request-Id, else X-Request-Id', async () => {
    nock(ORIGIN).get('/thing').reply(200, { ok: true }, { 'Request-Id': 'abc-1' });
    expect((await client().http.call(get)).requestId).toBe('abc-1');
    nock(ORIGIN).get('/thing').reply(200, { ok: true }, { 'X-Request-Id': 'xyz-2' });
    expect((await client().http.call(get)).requestId).toBe('xyz-2');
  });
});

describe('a success body that is not JSON is a bad_response error', () => {
  it('does not return garbage as data', async () => {
    nock(ORIGIN).get('/thing').reply(200, '<html>proxy login</html>');
    const error = await failure(client().http.call(get));
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('bad_response');
    expect(error.message).toBe('Response is not JSON: GET /thing');
  });

  it('an empty success body gives undefined data', async () => {
    nock(ORIGIN).delete('/thing').reply(204);
    const res = await client().http.call({ ...get, method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.data).toBeUndefined();
  });
});
