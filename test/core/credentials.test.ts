import { afterEach, describe, expect, it, vi } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { allKeys, keyFor } from '../../src/core/credentials.js';
import { SvcError } from '../../src/core/errors/index.js';
import { path } from '../../src/core/path.js';
import { maskKey } from '../../src/core/redact.js';
import { RETRY_SAFE } from '../../src/core/retry.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';
import { type LocalServer, sendJson, startServer } from './local-servers.js';

const server = useReferenceServer();
const clients: SvcClient[] = [];
const locals: LocalServer[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(locals.splice(0).map((s) => s.close()));
});

function track(client: SvcClient): SvcClient {
  clients.push(client);
  return client;
}

function configError(make: () => unknown): SvcError {
  try {
    make();
  } catch (error) {
    return error as SvcError;
  }
  throw new Error('expected a config error');
}

describe('per-interface keys fall back to apiKey', () => {
  it('uses the specific key when given, else apiKey', () => {
    const all = {
      apiKey: 'ak_main',
      auditApiKey: 'ak_audit',
      captchaApiKey: 'ak_cap',
      legacyApiKey: 'secret',
    };
    expect(keyFor(all, 'tax')).toBe('ak_main');
    expect(keyFor(all, 'audit')).toBe('ak_audit');
    expect(keyFor(all, 'captcha')).toBe('ak_cap');
    expect(keyFor(all, 'legacy')).toBe('secret');
    const main = { apiKey: 'ak_main' };
    for (const api of ['tax', 'audit', 'captcha', 'legacy'] as const)
      expect(keyFor(main, api)).toBe('ak_main');
    expect(keyFor({ apiKey: 'ak_main', auditApiKey: '' }, 'audit')).toBe('ak_main');
    expect(keyFor({}, 'tax')).toBeUndefined();
  });

  it('collects every configured key for redaction', () => {
    expect(allKeys({ apiKey: 'ak_a', auditApiKey: '', legacyApiKey: 'secret' })).toEqual(['ak_a', 'secret']);
  });

  it('the tax client sends apiKey when only an audit key is specific', async () => {
    const client = track(
      new SvcClient({ baseUrl: server().url, apiKey: TEST_KEY, auditApiKey: DEMO.agencyKey }),
    );
    await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
    expect(server().admin.requests().at(-1)?.key).toBe(maskKey(TEST_KEY));
  });
});

describe('SvcClient.fromEnv reads SVC_BASE_URL and the keys; options win', () => {
  it('reads both from the environment', async () => {
    vi.stubEnv('SVC_BASE_URL', server().url);
    vi.stubEnv('SVC_API_KEY', TEST_KEY);
    const client = track(SvcClient.fromEnv());
    expect(client.http.settings.baseUrl.origin).toBe(server().url);
    const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
    expect(outcome.kind).toBe('completed');
    expect(server().admin.requests().at(-1)?.key).toBe(maskKey(TEST_KEY));
  });

  it('overrides win over the environment', async () => {
    vi.stubEnv('SVC_BASE_URL', 'http://127.0.0.1:9');
    vi.stubEnv('SVC_API_KEY', DEMO.expiredKey);
    const client = track(SvcClient.fromEnv({ baseUrl: server().url, apiKey: TEST_KEY }));
    const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
    expect(outcome.kind).toBe('completed');
  });

  it('an override left undefined does not hide the environment', () => {
    vi.stubEnv('SVC_BASE_URL', server().url);
    const client = track(SvcClient.fromEnv({ baseUrl: undefined }));
    expect(client.http.settings.baseUrl.origin).toBe(server().url);
  });

  it('per-interface environment keys are known secrets', () => {
    vi.stubEnv('SVC_LEGACY_API_KEY', 'legacy-secret-value');
    const client = track(SvcClient.fromEnv({ baseUrl: 'http://127.0.0.1:9' }));
    expect(client.http.redact('x legacy-secret-value y')).not.toContain('legacy-secret-value');
  });
});

describe('the env option takes defaults from the environment given, never from process.env', () => {
  it('fills the options left out from `env`; an empty variable counts as unset', () => {
    const client = track(
      new SvcClient({
        env: { SVC_BASE_URL: server().url, SVC_API_KEY: TEST_KEY, SVC_AUDIT_API_KEY: '' },
        auditApiKey: undefined,
      }),
    );
    expect(client.http.settings.baseUrl.origin).toBe(server().url);
    expect(client.http.redact(`k ${TEST_KEY} k`)).not.toContain(TEST_KEY);
  });

  it('new SvcClient() without env ignores SVC_* variables of the process', () => {
    vi.stubEnv('SVC_BASE_URL', server().url);
    vi.stubEnv('SVC_API_KEY', TEST_KEY);
    vi.stubEnv('SVC_AUDIT_API_KEY', 'ak_other');
    const error = configError(() => new SvcClient());
    expect(error.code).toBe('config');
    const client = track(new SvcClient({ baseUrl: server().url }));
    expect(client.hasKey('tax')).toBe(false);
    expect(client.hasKey('audit')).toBe(false);
  });
});

describe('baseUrl is required and must be a valid http(s) URL (SvcError code config)', () => {
  it('is required', () => {
    const error = configError(() => SvcClient.fromEnv({ apiKey: TEST_KEY, env: {} }));
    expect(error).toBeInstanceOf(SvcError);
    expect(error.code).toBe('config');
    expect(error.message).toBe(
      'baseUrl is required (option baseUrl, or SVC_BASE_URL with SvcClient.fromEnv())',
    );
  });

  for (const bad of ['not a url', 'ftp://files.example.com', 'http://user:pass@api.example.com']) {
    it(`rejects ${bad}`, () => {
      const error = configError(() => new SvcClient({ baseUrl: bad }));
      expect(error).toBeInstanceOf(SvcError);
      expect(error.code).toBe('config');
      expect(error.message).not.toContain('pass@');
    });
  }
});

describe('a base URL with a path prefix keeps the prefix', () => {
  for (const prefix of ['/gateway/svc', '/gateway/svc/']) {
    it(`sends below ${prefix}`, async () => {
      const local = await startServer((_req, res) => sendJson(res, 200, {}));
      locals.push(local);
      const client = track(new SvcClient({ baseUrl: local.url + prefix }));
      await client.http.call({
        method: 'GET',
        path: '/taxvalidation/v1/x',
        query: { a: 'b c' },
        retry: RETRY_SAFE,
      });
      expect(local.seen[0]?.url).toBe('/gateway/svc/taxvalidation/v1/x?a=b+c');
    });
  }
});

describe('keys are sent only to the configured origin', () => {
  it('a path that looks like another host stays on the configured origin', async () => {
    const local = await startServer((_req, res) => sendJson(res, 200, {}));
    locals.push(local);
    const client = track(new SvcClient({ baseUrl: local.url, apiKey: TEST_KEY }));
    for (const sneaky of ['//evil.example/steal', 'http://evil.example/steal', '@evil.example/steal']) {
      expect(new URL(client.http.url(sneaky)).origin).toBe(local.url);
      await client.http.call({
        method: 'GET',
        path: sneaky,
        auth: { scheme: 'bearer', key: TEST_KEY },
        retry: RETRY_SAFE,
      });
    }
    expect(local.seen).toHaveLength(3);
  });
});

describe('path parameters are escaped so user input stays one segment', () => {
  it('escapes slashes, query and fragment characters', () => {
    expect(path`/schedules/${'a/b?c=d#e'}`).toBe('/schedules/a%2Fb%3Fc%3Dd%23e');
    expect(path`/r/${42}/x`).toBe('/r/42/x');
  });

  it('a value of "." or ".." cannot climb out of its segment', () => {
    // URL resolution collapses "." and ".." segments (and their %2e spellings), so such a value
    // would address another resource; path() must refuse it or keep it inside the segment.
    for (const value of ['.', '..']) {
      let built: string | undefined;
      try {
        built = path`/taxvalidation/v1/schedules/${value}`;
      } catch {
        continue;
      }
      const url = new URL('http://h');
      url.pathname = built;
      expect(url.pathname, `value ${JSON.stringify(value)}`).toMatch(
        /^\/taxvalidation\/v1\/schedules\/[^/]+$/,
      );
    }
  });
});
