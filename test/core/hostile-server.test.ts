import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { SvcClientOptions } from '../../src/client-options.js';
import {
  LocalValidationError,
  MalformedResponseError,
  ResponseTooLargeError,
  SvcError,
  TimeoutError,
} from '../../src/core/errors/error-classes.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import { createNodeHttpTransport } from '../../src/node/transport/node-http.js';
import { failure } from '../helpers/client.js';
import { bomb, endless, pump } from './hostile-servers.js';
import { type LocalServer, sendJson, useLocalServers } from './local-servers.js';

const KEY = 'ak_live_0123456789abcdefSECRET';
const LEGACY_SECRET = 'legacySecretWithoutPrefix42';
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const { serve, keep } = useLocalServers();

function client(server: LocalServer, options: SvcClientOptions = {}): SvcClient {
  return keep(
    new SvcClient({
      baseUrl: server.url,
      apiKey: KEY,
      maxRetries: 2,
      sleep: async () => {},
      ...options,
    }),
  );
}

/** Everything an error shows to a logger, a console or a serializer. */
function exposed(error: Error): string {
  return [
    error.message,
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify(error),
    String(error.stack),
  ].join('\n');
}

/** Every string reachable through own enumerable properties, as a structured clone would copy them. */
function enumerableStrings(root: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value instanceof URL) out.push(value.href);
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key]);
  };
  walk(root);
  return out;
}

const transports = {
  undici: {} as SvcClientOptions,
  fetch: { transport: createFetchTransport() } as SvcClientOptions,
  'node:http': { transport: createNodeHttpTransport() } as SvcClientOptions,
};

describe.each(Object.entries(transports))(
  'a response body past its byte cap is dropped, not buffered (%s transport)',
  (_name, options) => {
    it('a bot-check result that never ends stops at 64 KiB with ResponseTooLargeError, not retried', async () => {
      const sent = { bytes: 0 };
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        pump(res, endless('{"verificationId":"', 'x'.repeat(65_536)), sent);
      });
      const error = await failure(client(server, options).botCheck.getResult(ID));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toBe(
        `Response to GET /captcha/v2/verifications/${ID}/results is larger than the limit of 65536 bytes (status 200); stopped reading`,
      );
      expect((error as ResponseTooLargeError).limitBytes).toBe(65_536);
      expect(server.seen).toHaveLength(1);
      expect(exposed(error)).not.toContain(KEY);
    });

    it('a Content-Length above the cap fails before the body is read', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(200 * 1024 * 1024),
        });
        res.write('{"verificationId":"');
      });
      const error = await failure(client(server, options).botCheck.getResult(ID));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
    });

    it('an error body has its own cap (1 MiB by default)', async () => {
      const sent = { bytes: 0 };
      const server = await serve((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        pump(res, endless('<html>', '<p>'.repeat(100_000)), sent);
      });
      const error = await failure(client(server, options).tax.getResult('vr_1', { maxRetries: 0 }));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toMatch(/limit of 1048576 bytes \(status 500\); stopped reading$/);
      expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    });

    it('caps are settable per kind of endpoint', async () => {
      const server = await serve((_req, res) =>
        sendJson(res, 200, { content: [], padding: 'p'.repeat(2000) }),
      );
      const small = client(server, { ...options, maxResponseBytes: { auditPage: 1000 } });
      const error = await failure(
        small.audit.listEvents({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toMatch(
        /^Response to GET \/platform\/v1\/events is larger than the limit of 1000 bytes/,
      );
      expect(small.http.responseLimits).toEqual({
        auditPage: 1000,
        botCheck: 65_536,
        tax: 4_194_304,
        error: 1_048_576,
      });
    });

    // The timeout counts silence, and a trickle is never silent: the deadline bounds the whole call.
    it('a body that trickles forever is ended by the deadline', async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"verificationId":"');
        const timer = setInterval(() => res.write('x'), 5);
        res.on('close', () => clearInterval(timer));
      });
      const trickled = client(server, { ...options, timeoutMs: 150, deadlineMs: 400 });
      const error = await failure(trickled.botCheck.getResult(ID));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ phase: 'deadline', timeoutMs: 400, attempts: 1 });
      expect(error.message).toBe(
        `Deadline of 400 ms passed: GET /captcha/v2/verifications/${ID}/results (1 attempt)`,
      );
    });
  },
);

describe('a bot-check result fetch fails closed in time: its own deadline when the client sets none', () => {
  it('a bot-check fetch has a deadline of its own (10 s) when the client sets none: a form submit fails closed', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"verificationId":"');
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const error = await failure(client(server, { timeoutMs: 150 }).botCheck.getResult(ID));
    expect(error).toMatchObject({ phase: 'deadline', timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});

describe('a cap that is not a positive whole number is a config error', () => {
  it('refuses 0, negative and fractional caps', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(
        () => new SvcClient({ baseUrl: 'http://127.0.0.1:9', maxResponseBytes: { botCheck: bad } }),
      ).toThrow(/^maxResponseBytes\.botCheck must be a positive whole number of bytes$/);
    }
  });
});

describe('compression bombs stop at the cap after decompression (fetch transport)', () => {
  it.each(['gzip', 'br'] as const)(
    'a %s body that inflates without end is aborted at 64 KiB',
    async (encoding) => {
      const sent = { bytes: 0 };
      const server = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        pump(res, bomb(encoding), sent);
      });
      const error = await failure(client(server, transports.fetch).botCheck.getResult(ID));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message.split('\n')).toHaveLength(1);
      // Compressed, a 64 KiB cap is reached after a few hundred bytes of the stream.
      expect(sent.bytes).toBeLessThan(8 * 1024 * 1024);
    },
  );

  it('undici request does not decode content-encoding: a gzip body stays gzip and is refused as not JSON', async () => {
    const zipped = gzipSync(Buffer.alloc(1 << 20, 0x30));
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zipped);
    });
    const error = await failure(client(server).botCheck.getResult(ID));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toBe(`Response is not JSON: GET /captcha/v2/verifications/${ID}/results`);
  });
});

describe('one redaction covers every configured secret in error fields, messages and logger lines', () => {
  for (const [name, secret, options] of [
    ['an ak_ key', KEY, {}],
    ['a legacy secret without the ak_ prefix', LEGACY_SECRET, { legacyApiKey: LEGACY_SECRET }],
  ] as const) {
    it(`${name} echoed in request-id, Location and the body never reaches the error or the logger`, async () => {
      const server = await serve((req, res) => {
        const echoed = String(req.headers['svc-authorization'] ?? req.headers.authorization ?? '');
        res.writeHead(302, {
          'request-id': `req-${echoed}`,
          location: `https://evil.example/steal?k=${echoed}`,
          'content-type': 'application/json',
        });
        res.end(JSON.stringify({ detail: `you sent ${echoed}` }));
      });
      const lines: string[] = [];
      const made = client(server, { ...options, logger: { debug: (line) => lines.push(line) } });
      const call =
        secret === KEY
          ? made.botCheck.getResult(ID)
          : made.legacyBotCheck.getAssessment(ID, { maxRetries: 0 });
      const error = await failure(call);
      expect(error).toBeInstanceOf(SvcError);
      expect((error as { requestId?: string }).requestId).toMatch(/^req-/);
      expect(error.message).toMatch(/redirect to https:\/\/evil\.example\/steal\?k=.* not followed/);
      expect(error.message.split('\n')).toHaveLength(1);
      expect(lines.length).toBeGreaterThan(0);
      for (const text of [exposed(error), ...lines]) expect(text).not.toContain(secret);
    });
  }
});

describe('secrets are invisible to inspect, JSON and structured clones of the client and its errors', () => {
  it('console.log(client) and JSON.stringify(client) show no key', () => {
    const made = new SvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, legacyApiKey: LEGACY_SECRET });
    keep(made);
    const views = [
      inspect(made, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      inspect(made.http, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(made),
      JSON.stringify(made.http),
    ];
    for (const view of views) {
      expect(view).not.toContain(KEY);
      expect(view).not.toContain(LEGACY_SECRET);
    }
    // structuredClone copies own enumerable data: no string reachable that way holds a key.
    const reachable = enumerableStrings(made);
    expect(reachable.length).toBeGreaterThan(0);
    for (const text of reachable) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(LEGACY_SECRET);
    }
  });

  it('an error from a server echoing the key clones without it', async () => {
    const server = await serve((req, res) =>
      sendJson(
        res,
        403,
        { detail: `bad key ${String(req.headers.authorization)}` },
        { 'request-id': String(req.headers.authorization) },
      ),
    );
    const error = await failure(client(server).botCheck.getResult(ID));
    const clone = structuredClone(error);
    expect(inspect(clone, { depth: 10 })).not.toContain(KEY);
    expect(exposed(error)).not.toContain(KEY);
  });
});

describe('keys are checked locally: printable ASCII without whitespace, nothing sent', () => {
  it.each([
    ['a trailing newline', `${KEY}\n`],
    ['CR LF inside', 'ak_abc\r\nX-Injected: 1'],
    ['a space', 'ak_abc def'],
    ['a tab', 'ak_abc\tdef'],
    ['non-ASCII', 'ak_abcdé'],
  ])('a key with %s is a LocalValidationError before any request', async (_what, key) => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const error = await failure(client(server, { apiKey: key }).botCheck.getResult(ID));
    expect(error).toBeInstanceOf(LocalValidationError);
    expect(error.message).toBe(
      'Invalid API key: apiKey: must be printable ASCII without spaces or line breaks',
    );
    expect(server.seen).toHaveLength(0);
    expect(exposed(error)).not.toContain(key.trim());
  });
});

describe('422 messages list each {path, message} of the problem body, bounded and escaped', () => {
  it('names every failing path up to ten, then a count', async () => {
    const errors = Array.from({ length: 12 }, (_, i) => ({
      path: `items.${i}.rawValue`,
      message: `bad value ${i}`,
    }));
    errors[1] = { path: 'items.1.countryCode', message: 'evil \u001b]0;owned\u0007 title\nnext line' };
    const server = await serve((_req, res) =>
      sendJson(
        res,
        422,
        { title: 'Invalid validation request', errors },
        { 'content-type': 'application/problem+json' },
      ),
    );
    const error = await failure(client(server).tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' }));
    expect(
      error.message.startsWith(
        '422 Unprocessable Entity: POST /taxvalidation/v1/validations (Invalid validation request: items.0.rawValue: bad value 0; items.1.countryCode: evil \\u001b]0;owned\\u0007 title next line; items.2.rawValue: bad value 2;',
      ),
    ).toBe(true);
    expect(error.message).toMatch(/items\.9\.rawValue: bad value 9 \(and 2 more\)\)$/);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
