import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { SvcClientOptions } from '../../src/client-options.js';
import { readRawPage } from '../../src/core/bulk-read.js';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import type { CallSpec } from '../../src/core/http.js';
import { RETRY_SAFE, RETRY_UNSENT_ONLY } from '../../src/core/retry.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import type { Transport } from '../../src/core/transport/types.js';
import { createDefaultTransport } from '../../src/node/transport/default.js';
import { createNodeHttpTransport } from '../../src/node/transport/node-http.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { failure } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';
import { closedPort, type LocalServer, startHangingServer, startServer } from './local-servers.js';

const VALIDATIONS = '/taxvalidation/v1/validations';

const transports: Array<{ name: string; make: () => Transport }> = [
  { name: 'undici', make: () => createUndiciTransport() },
  { name: 'fetch', make: () => createFetchTransport(globalThis.fetch) },
  { name: 'node:http', make: () => createNodeHttpTransport() },
  { name: 'default', make: () => createDefaultTransport() },
];

const server = useReferenceServer();

/** Resolves to the error a promise rejects with; fails the test when it resolves. */

function validationCall(key: string | undefined): CallSpec {
  return {
    method: 'POST',
    path: VALIDATIONS,
    body: { countryCode: 'DE', rawValue: 'DE136695976', idempotencyKey: randomUUID() },
    auth: { scheme: 'bearer', key },
    retry: RETRY_SAFE,
  };
}

describe.each(transports)('transport contract ($name)', ({ make }) => {
  const clients: SvcClient[] = [];
  const locals: LocalServer[] = [];

  function client(options: SvcClientOptions = {}): SvcClient {
    const c = new SvcClient({
      baseUrl: server().url,
      transport: make(),
      maxRetries: 0,
      sleep: async () => {},
      ...options,
    });
    clients.push(c);
    return c;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(locals.splice(0).map((s) => s.close()));
  });

  describe('a success returns the parsed JSON body, the raw text and the Request-Id', () => {
    it('reads a JSON document', async () => {
      const res = await client().http.call({ method: 'GET', path: '/__admin/stats', retry: RETRY_SAFE });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.data).toMatchObject({ requestsByRoute: expect.any(Object) });
      expect(JSON.parse(res.text)).toEqual(res.data);
      expect(res.requestId).toMatch(/^req_/);
    });

    it('sends a JSON body with the bearer key and gets 201', async () => {
      const res = await client().http.call(validationCall(TEST_KEY));
      expect(res.status).toBe(201);
      expect(res.data).toMatchObject({ validationResultId: expect.any(String) });
      const logged = server().admin.requests().at(-1);
      expect(logged?.requestId).toBe(res.requestId);
      expect(logged?.status).toBe(201);
    });
  });

  describe('a non-success status throws the ApiError subclass of that status', () => {
    const cases: Array<{
      what: string;
      key: string | undefined;
      status: number;
      reason: string;
      type: typeof ApiError;
    }> = [
      { what: 'no key', key: undefined, status: 401, reason: 'Unauthorized', type: AuthenticationError },
      {
        what: 'an expired key',
        key: DEMO.expiredKey,
        status: 403,
        reason: 'Forbidden',
        type: PermissionDeniedError,
      },
      {
        what: 'an unknown key',
        key: 'ak_unknown_key_0000000000',
        status: 403,
        reason: 'Forbidden',
        type: PermissionDeniedError,
      },
      {
        what: 'a locked project',
        key: DEMO.lockedKey,
        status: 402,
        reason: 'Payment Required',
        type: PaymentRequiredError,
      },
    ];
    for (const c of cases) {
      it(`${c.status} for ${c.what}, with status, code, requestId, body and detail`, async () => {
        const error = await failure(client().http.call(validationCall(c.key)));
        expect(error).toBeInstanceOf(c.type);
        const api = error as ApiError;
        expect(api.status).toBe(c.status);
        expect(api.code).toBe(`http_${c.status}`);
        expect(api.method).toBe('POST');
        expect(api.path).toBe(VALIDATIONS);
        expect(api.requestId).toBe(server().admin.requests().at(-1)?.requestId);
        expect(api.body).toMatchObject({ status: c.status, detail: expect.any(String) });
        expect(api.detail).toBe((api.body as { detail: string }).detail);
        expect(api.message).toBe(`${c.status} ${c.reason}: POST ${VALIDATIONS} (${api.detail})`);
      });
    }

    it('formats the message as `403 Forbidden: POST /path (detail)`', async () => {
      const error = await failure(client().http.call(validationCall(DEMO.expiredKey)));
      expect(error.message).toBe(`403 Forbidden: POST ${VALIDATIONS} (API key expired)`);
      expect(error.name).toBe('PermissionDeniedError');
    });

    it('404 for an unknown path is a NotFoundError', async () => {
      const error = await failure(client().http.call({ method: 'GET', path: '/nowhere', retry: RETRY_SAFE }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('404 Not Found: GET /nowhere (No route for GET /nowhere)');
    });

    it('405 (no subclass) is a plain ApiError', async () => {
      const error = await failure(
        client().http.call({ method: 'GET', path: VALIDATIONS, retry: RETRY_SAFE }),
      );
      expect(error.constructor).toBe(ApiError);
      expect((error as ApiError).status).toBe(405);
    });

    it('422 keeps the problem body with its errors', async () => {
      const error = await failure(
        client().http.call({ method: 'POST', path: '/__admin/faults', body: { rate: 5 }, retry: RETRY_SAFE }),
      );
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect((error as ApiError).body).toMatchObject({ status: 422, errors: [{ path: 'rate' }] });
    });

    it('5xx is an InternalServerError and 429 a RateLimitError', async () => {
      server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
      const unavailable = await failure(client().http.call(validationCall(TEST_KEY)));
      expect(unavailable).toBeInstanceOf(InternalServerError);
      expect(unavailable.message).toBe(
        `503 Service Unavailable: POST ${VALIDATIONS} (Injected fault: service unavailable)`,
      );
      server().admin.setFaults({ rate: 1, kinds: ['status429'], seed: 1 });
      const limited = await failure(client().http.call(validationCall(TEST_KEY)));
      expect(limited).toBeInstanceOf(RateLimitError);
      server().admin.setFaults(undefined);
    });
  });

  describe('redirects are not followed and credentials never leave the configured origin', () => {
    it('a 302 to another origin throws an ApiError naming the redirect; the other origin gets nothing', async () => {
      const other = await startServer((_req, res) => res.end('{}'));
      const redirecting = await startServer((_req, res) => {
        res.writeHead(302, { location: `${other.url}/steal` });
        res.end();
      });
      locals.push(other, redirecting);
      const error = await failure(
        client({ baseUrl: redirecting.url, apiKey: TEST_KEY }).http.call({
          method: 'GET',
          path: '/start',
          auth: { scheme: 'bearer', key: TEST_KEY },
          retry: RETRY_SAFE,
        }),
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(302);
      expect(error.message).toContain('redirect');
      expect(error.message).toContain(`${other.url}/steal`);
      expect(other.seen).toEqual([]);
      expect(redirecting.seen).toHaveLength(1);
      expect(redirecting.seen[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    });
  });

  describe('a per-attempt timeout ends the attempt with TimeoutError', () => {
    it('times out a server that never answers', async () => {
      const hanging = await startHangingServer();
      locals.push(hanging);
      const error = await failure(
        client({ baseUrl: hanging.url, timeoutMs: 100 }).http.call({
          method: 'GET',
          path: '/slow',
          retry: RETRY_UNSENT_ONLY,
        }),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).timeoutMs).toBe(100);
      expect(error.message).toBe('No answer for 100 ms: GET /slow (1 attempt)');
      expect(hanging.seen).toHaveLength(1);
    });

    it('times out a body that stops after its headers and part of its announced length', async () => {
      const stalling = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
      });
      locals.push(stalling);
      const error = await failure(
        client({ baseUrl: stalling.url, timeoutMs: 100 }).http.call({
          method: 'GET',
          path: '/stalls',
          retry: RETRY_UNSENT_ONLY,
        }),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe('No data for 100 ms while reading the response: GET /stalls (1 attempt)');
    });
  });

  describe('an AbortSignal ends the call with AbortError', () => {
    it('aborts a call in flight', async () => {
      const hanging = await startHangingServer();
      locals.push(hanging);
      const controller = new AbortController();
      void hanging.received.then(() => controller.abort());
      const error = await failure(
        client({ baseUrl: hanging.url }).http.call({
          method: 'GET',
          path: '/slow',
          retry: RETRY_SAFE,
          options: { signal: controller.signal, maxRetries: 3 },
        }),
      );
      expect(error).toBeInstanceOf(AbortError);
      expect(hanging.seen).toHaveLength(1);
    });

    it('sends nothing when the signal already fired', async () => {
      const hanging = await startHangingServer();
      locals.push(hanging);
      const error = await failure(
        client({ baseUrl: hanging.url }).http.call({
          method: 'GET',
          path: '/slow',
          retry: RETRY_SAFE,
          options: { signal: AbortSignal.abort() },
        }),
      );
      expect(error).toBeInstanceOf(AbortError);
      expect(hanging.seen).toHaveLength(0);
    });
  });

  describe('a refused connection is a ConnectionError with requestSent false', () => {
    it('names the target, never the key', async () => {
      const port = await closedPort();
      const error = await failure(
        client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: TEST_KEY }).http.call({
          method: 'GET',
          path: '/x',
          auth: { scheme: 'bearer', key: TEST_KEY },
          retry: RETRY_UNSENT_ONLY,
        }),
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).requestSent).toBe(false);
      expect((error as ConnectionError).code).toBe('connection');
      expect(error.message).toBe(`Connection to 127.0.0.1:${port} failed: ECONNREFUSED`);
      expect(error.message).not.toContain(TEST_KEY);
    });
  });
  describe('a body is decoded as TextDecoder decodes UTF-8: a byte order mark dropped, malformed bytes replaced', () => {
    it.each([
      ['with its length announced', true],
      ['chunked', false],
    ])('%s', async (_what, announced) => {
      const bytes = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{"s":"a'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80]),
        Buffer.from('é"}'),
      ]);
      const local = await startServer((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(announced && { 'content-length': String(bytes.length) }),
        });
        res.end(bytes);
      });
      locals.push(local);
      const res = await client({ baseUrl: local.url }).http.call({
        method: 'GET',
        path: '/utf8',
        retry: RETRY_UNSENT_ONLY,
      });
      const expected = new TextDecoder().decode(bytes);
      expect(expected.startsWith('{"s":"a\uFFFD')).toBe(true);
      expect(res.text).toBe(expected);
      expect(res.data).toEqual(JSON.parse(expected));
    });
  });

  describe('a body cut short of its Content-Length is a ConnectionError, not a response', () => {
    it.each([
      ['text', undefined],
      ['bytes into a reused buffer', () => Buffer.alloc(100)],
    ])('%s', async (_what, bodyBuffer) => {
      const local = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        setImmediate(() => res.socket?.destroy());
      });
      locals.push(local);
      const { http } = client({ baseUrl: local.url, apiKey: TEST_KEY });
      const call: CallSpec = {
        method: 'GET',
        path: '/x',
        auth: { scheme: 'bearer', key: TEST_KEY },
        retry: RETRY_UNSENT_ONLY,
      };
      const error = await failure(bodyBuffer ? readRawPage(http, call, bodyBuffer) : http.call(call));
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).requestSent).toBe(true);
    });
  });
});
