import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { SvcClientOptions } from '../../src/client-options.js';
import type { SvcError } from '../../src/core/errors/index.js';
import type { RequestEvent, ResponseEvent } from '../../src/core/logger.js';
import { maskKey, redact, redactHeaders } from '../../src/core/redact.js';
import { RETRY_SAFE } from '../../src/core/retry.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';
import { type LocalServer, sendJson, startServer } from './local-servers.js';

const KEY = 'ak_abcdEFGH1234ijklMNOPwxyz';
const server = useReferenceServer();
const locals: LocalServer[] = [];
const clients: SvcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(locals.splice(0).map((s) => s.close()));
});

describe('a key is shown as ak_abcd...wxyz', () => {
  it('masks long keys to the first and last four characters', () => {
    expect(maskKey(KEY)).toBe('ak_abcd...wxyz');
    expect(maskKey(TEST_KEY)).toBe('ak_xxxx...xxxx');
  });

  it('hides short keys and other secrets entirely or nearly', () => {
    expect(maskKey('ak_short')).toBe('ak_...');
    expect(maskKey('tiny')).toBe('***');
    expect(maskKey('demo-captcha-secret')).toBe('de...et');
  });
});

describe('redact() masks ak_ keys, encryptedAccessToken, access tokens and extra secrets', () => {
  it('masks every ak_ key in free text', () => {
    expect(redact(`Bearer ${KEY} and again: ${KEY}.`)).toBe(
      'Bearer ak_abcd...wxyz and again: ak_abcd...wxyz.',
    );
    expect(redact(`{"apiKey":"${KEY}"}`)).not.toContain(KEY);
  });

  it('masks encryptedAccessToken and accessToken values', () => {
    expect(redact('{"encryptedAccessToken": "c2VjcmV0LXRva2Vu", "x": 1}')).toBe(
      '{"encryptedAccessToken": "[redacted]", "x": 1}',
    );
    expect(redact('{"accessToken":"tok-123"}')).toBe('{"accessToken":"[redacted]"}');
    expect(redact('GET /results?accessToken=tok-123&page=2')).toBe(
      'GET /results?accessToken=[redacted]&page=2',
    );
  });

  it('is stable: redacting text that holds an already masked key keeps the mask', () => {
    // Lines are often built from masked values and then passed through redact() again (CLI info lines).
    expect(redact(`Saved api-key = ${maskKey(KEY)}`)).toBe('Saved api-key = ak_abcd...wxyz');
  });

  it('masks extra secrets that have no ak_ prefix', () => {
    const text = redact('svc-authorization: demo-captcha-secret failed', [DEMO.captchaSecret]);
    expect(text).toBe('svc-authorization: de...et failed');
  });

  it('masks a secret in text with nothing else to mask (a request id), and leaves such text as it is', () => {
    expect(redact(`req_${DEMO.captchaSecret}_7`, [DEMO.captchaSecret])).toBe('req_de...et_7');
    expect(redact('req_0123456789abcdef', [DEMO.captchaSecret])).toBe('req_0123456789abcdef');
    expect(redact('req-ak_0123456789abcdefgh')).toBe('req-ak_0123...efgh');
  });

  it('property: an ak_ key between separators never survives', () => {
    const keyArb = fc
      .stringMatching(/^[A-Za-z0-9_-]{4,60}$/)
      .map((tail) => `ak_${tail}`)
      .filter((k) => k.length >= 19);
    const textArb = fc.string({ maxLength: 40 });
    const sep = fc.constantFrom(' ', '\n', '"', "'", '=', ':', '(', '/', ',');
    fc.assert(
      fc.property(textArb, sep, keyArb, sep, textArb, (before, s1, key, s2, after) => {
        const out = redact(before + s1 + key + s2 + after);
        expect(out).not.toContain(key);
      }),
    );
  });

  it('property: an explicit secret never survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 8, maxLength: 40 }), fc.string(), (a, secret, b) => {
        fc.pre(!secret.includes('...') && secret.trim() === secret && secret.length >= 8);
        expect(redact(a + secret + b, [secret])).not.toContain(secret);
      }),
    );
  });
});

describe('redactHeaders masks Authorization and svc-authorization', () => {
  it('keeps the scheme and masks the credential; other headers pass through redact', () => {
    expect(
      redactHeaders({
        Authorization: `Bearer ${KEY}`,
        'svc-authorization': DEMO.captchaSecret,
        'x-note': `key ${KEY}`,
        accept: 'application/json',
        empty: undefined,
      }),
    ).toEqual({
      Authorization: 'Bearer ak_abcd...wxyz',
      'svc-authorization': 'de...et',
      'x-note': 'key ak_abcd...wxyz',
      accept: 'application/json',
    });
  });
});

describe("S3 credentials: the session token header and a presigned URL's signature are masked", () => {
  it('masks X-Amz-Security-Token as a header and X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token in a query', () => {
    const token = 'FQoGZXIvYXdzEXAMPLESESSIONTOKEN0123456789';
    expect(redactHeaders({ 'X-Amz-Security-Token': token })['X-Amz-Security-Token']).not.toContain(
      token.slice(4),
    );
    const presigned = `https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20260302%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${token}&X-Amz-Signature=${'ab'.repeat(32)}`;
    const shown = redact(presigned);
    expect(shown).not.toContain('AKIDEXAMPLE');
    expect(shown).not.toContain(token);
    expect(shown).not.toContain('ab'.repeat(32));
    expect(shown).toContain('X-Amz-Algorithm=AWS4-HMAC-SHA256');
    expect(redact(presigned.toLowerCase())).not.toContain('ab'.repeat(32));
  });
});

describe("a URL's user name and password are never shown: every URL is printed as scheme://***@host", () => {
  it('removes the userinfo of http, https, s3 and proxy URLs in free text, and keeps the rest', () => {
    expect(redact('warning: http://USER:SECRET@127.0.0.1:9000 (bucket b) ignores If-None-Match')).toBe(
      'warning: http://***@127.0.0.1:9000 (bucket b) ignores If-None-Match',
    );
    expect(redact('proxy https://u:p@proxy.corp:3128/ and https://api.example.com/x?y=1')).toBe(
      'proxy https://***@proxy.corp:3128/ and https://api.example.com/x?y=1',
    );
    expect(redact('HTTP://only-user@h/')).toBe('HTTP://***@h/');
  });

  it('a password holding an @ is removed whole (the host starts after the last @)', () => {
    expect(redact('http://u:p@ss@host:1/path@x')).toBe('http://***@host:1/path@x');
  });

  it('is stable, and leaves e-mail addresses and URLs without userinfo alone', () => {
    expect(redact('http://***@h/')).toBe('http://***@h/');
    expect(redact('ask ops@example.com about https://example.com/a@b')).toBe(
      'ask ops@example.com about https://example.com/a@b',
    );
  });

  it('no generated user name or password survives (property)', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9._~%!$&()*+,;=:-]{1,24}$/);
    fc.assert(
      fc.property(part, part, (user, password) => {
        const shown = redact(`error at https://${user}:${password}@store.test:443/b/k: refused`);
        expect(shown).toBe('error at https://***@store.test:443/b/k: refused');
      }),
    );
  });
});

describe('logger lines and onRequest/onResponse hooks never contain a key', () => {
  for (const [name, make] of [
    ['undici', () => createUndiciTransport()],
    ['fetch', () => createFetchTransport(globalThis.fetch)],
  ] as const) {
    it(`${name}: success, failure and retry`, async () => {
      const lines: string[] = [];
      const requests: RequestEvent[] = [];
      const responses: ResponseEvent[] = [];
      const options: SvcClientOptions = {
        baseUrl: server().url,
        apiKey: TEST_KEY,
        legacyApiKey: DEMO.captchaSecret,
        transport: make(),
        logger: { debug: (line) => lines.push(line) },
        onRequest: (event) => requests.push(event),
        onResponse: (event) => responses.push(event),
        sleep: async () => server().admin.setFaults(undefined),
      };
      const client = new SvcClient(options);
      clients.push(client);
      server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
      await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
      await client.http
        .call({
          method: 'GET',
          path: '/legacy/check',
          query: { accessToken: 'tok-secret-123', apiKey: TEST_KEY },
          auth: { scheme: 'svc-authorization', key: DEMO.captchaSecret },
          retry: RETRY_SAFE,
          options: { maxRetries: 0 },
        })
        .catch(() => undefined);

      const everything = JSON.stringify({ lines, requests, responses });
      expect(requests.length).toBeGreaterThanOrEqual(3);
      expect(responses.map((r) => r.status)).toEqual([503, 201, 404]);
      expect(lines.some((l) => l.includes('retrying'))).toBe(true);
      expect(lines[0]).toMatch(
        /^HTTP POST http:\/\/127\.0\.0\.1:\d+\/taxvalidation\/v1\/validations -> 503 \d+ms/,
      );
      for (const secret of [TEST_KEY, DEMO.captchaSecret, 'tok-secret-123']) {
        expect(everything).not.toContain(secret);
      }
      expect(requests[0]?.headers.authorization).toBe('Bearer ak_xxxx...xxxx');
      expect(requests.at(-1)?.headers['svc-authorization']).toBe('de...et');
      expect(requests.at(-1)?.url).toContain('accessToken=[redacted]');
    });
  }
});

describe('error messages never contain the key, even when the server echoes it', () => {
  it('redacts a key the server put in its problem detail', async () => {
    const echo = await startServer((req, res) =>
      sendJson(res, 403, {
        title: 'Forbidden',
        detail: `key rejected: ${req.headers.authorization ?? req.headers['svc-authorization']}`,
      }),
    );
    locals.push(echo);
    const secretKey = 'plain-secret-without-prefix-123';
    const client = new SvcClient({ baseUrl: echo.url, apiKey: KEY, legacyApiKey: secretKey, maxRetries: 0 });
    clients.push(client);
    for (const auth of [
      { scheme: 'bearer' as const, key: KEY },
      { scheme: 'svc-authorization' as const, key: secretKey },
    ]) {
      let error: SvcError | undefined;
      try {
        await client.http.call({ method: 'GET', path: '/x', auth, retry: RETRY_SAFE });
      } catch (e) {
        error = e as SvcError;
      }
      expect(error).toBeDefined();
      const shown = `${error?.message}\n${String(error)}\n${error?.stack}\n${(error as { detail?: string }).detail}`;
      expect(shown).toContain('key rejected');
      expect(shown).not.toContain(auth.key);
    }
  });
});
