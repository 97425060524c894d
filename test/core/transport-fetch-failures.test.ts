import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { ConnectionError, SvcError } from '../../src/core/errors/index.js';
import { RETRY_UNSENT_ONLY } from '../../src/core/retry.js';
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

  it('a failure without a code counts as sent (the safe assumption)', async () => {
    nock(ORIGIN).get('/thing').replyWithError('something odd');
    const error = await failure(client().http.call(get));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).requestSent).toBe(true);
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
