import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_OUTCOMES } from '../../src/botcheck/dev-outcomes.js';
import { SvcClient } from '../../src/client.js';
import { isLoopbackOrigin } from '../../src/core/host-guard.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt } from '../helpers/build.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

const LOOPBACK = ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080'];
const FOREIGN = [
  'http://evil.example',
  'https://localhost:3000',
  'http://localhost.evil.example:3000',
  'http://127.0.0.1.nip.io:3000',
  'http://attacker.localhost:3000',
  'http://127.0.0.2:3000',
  'null',
  'http://localhost:3000/',
];

/** POSTs to the widget endpoint with the given origin, content type and body. */
function createByWidget(origin: string | undefined, body: string, type = 'application/json') {
  const headers: Record<string, string> = { 'content-type': type };
  if (origin !== undefined) headers.origin = origin;
  return fetch(`${server().url}/__widget/verifications`, { method: 'POST', headers, body });
}

const verificationsCreated = () =>
  server()
    .admin.consoleEvents()
    .filter((e) => e.type === 'verification').length;

describe('widget endpoint: loopback pages only, with CORS', () => {
  it('knows exactly the loopback origins', () => {
    for (const origin of LOOPBACK) expect(isLoopbackOrigin(origin), origin).toBe(true);
    for (const origin of FOREIGN) expect(isLoopbackOrigin(origin), origin).toBe(false);
  });

  it('a loopback page gets its origin back on the preflight and on the POST', async () => {
    for (const origin of LOOPBACK) {
      const preflight = await fetch(`${server().url}/__widget/verifications`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
      const res = await createByWidget(origin, '{"outcome":"pass"}');
      expect(res.status).toBe(201);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toBe('Origin');
    }
  });

  it('any other origin gets 403 without CORS headers and creates nothing', async () => {
    for (const origin of FOREIGN) {
      const preflight = await fetch(`${server().url}/__widget/verifications`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const res = await createByWidget(origin, '{"outcome":"pass"}');
      expect(res.status, origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(verificationsCreated()).toBe(0);
  });
});

describe('widget endpoint: only a JSON {outcome}', () => {
  it('a text/plain or form body (no preflight) gets 415 and creates nothing', async () => {
    expect((await createByWidget('http://localhost:3000', '{"outcome":"pass"}', 'text/plain')).status).toBe(
      415,
    );
    const form = await createByWidget(
      'http://localhost:3000',
      'outcome=pass',
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(415);
    expect(verificationsCreated()).toBe(0);
  });

  it('an unknown outcome, extra fields, bad JSON or a large body are refused', async () => {
    const statuses = [];
    for (const body of ['{"outcome":"admin"}', '{"outcome":"pass","maxFetches":1000}', '{"outcome":', '[]']) {
      statuses.push((await createByWidget(undefined, body)).status);
    }
    statuses.push(
      (await createByWidget(undefined, JSON.stringify({ outcome: 'pass', pad: 'x'.repeat(5000) }))).status,
    );
    expect(statuses).toEqual([422, 422, 400, 422, 413]);
    expect(verificationsCreated()).toBe(0);
  });

  it('each outcome creates a verification that the API answers as that outcome', async () => {
    const res = await createByWidget('http://127.0.0.1:3000', '{"outcome":"bot"}');
    const { verificationId, token, outcome } = (await res.json()) as Record<string, string>;
    expect(outcome).toBe('bot');
    expect(JSON.parse(Buffer.from(token as string, 'base64').toString())).toMatchObject({ verificationId });
    const result = await rawRequest(
      server().url,
      'GET',
      `/captcha/v2/verifications/${verificationId}/results`,
      {
        key: DEMO.projectKey,
      },
    );
    expect(result.body).toMatchObject({ verificationPassed: true, score: 0.9 });
    const unfinished = (await (await createByWidget(undefined, '{"outcome":"unfinished"}')).json()) as {
      verificationId: string;
    };
    const early = await rawRequest(
      server().url,
      'GET',
      `/captcha/v2/verifications/${unfinished.verificationId}/results`,
      {
        key: DEMO.projectKey,
      },
    );
    expect(early.status).toBe(423);
  });
});

describe('console and widget assets: served by the package, locked down', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('the console page forbids inline script and framing; its assets and the widget are JavaScript and CSS', async () => {
    const page = await fetch(`${server().url}/__console`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/);
    for (const [path, type] of [
      ['/__console/assets/console.js', 'text/javascript; charset=utf-8'],
      ['/__console/assets/console.css', 'text/css; charset=utf-8'],
      ['/__widget.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await fetch(`${server().url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(await res.text()).not.toMatch(/https?:\/\/(?!localhost|127\.0\.0\.1|\[::1\])[a-z]/i);
    }
    expect((await fetch(`${server().url}/__console/assets/../../package.json`)).status).toBe(404);
    expect((await fetch(`${server().url}/__console/assets/%2e%2e%2fpackage.json`)).status).toBe(404);
  });
});

describe('widget outcomes: what a backend decides for each (docs/reference-server.md)', () => {
  it('multi-stage policy: pass accept; fail, bot, expired, unfinished reject; challenge and failover challenge', async () => {
    const client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
    const decisions: Record<string, string> = {};
    for (const outcome of DEV_OUTCOMES) {
      const created = (await (await createByWidget(undefined, JSON.stringify({ outcome }))).json()) as {
        token: string;
      };
      decisions[outcome] = (
        await client.botCheck.verify(created.token, { policy: { kind: 'multiStage' } })
      ).decision;
    }
    await client.close();
    expect(decisions).toEqual({
      pass: 'accept',
      fail: 'reject',
      bot: 'reject',
      challenge: 'challenge',
      failover: 'challenge',
      unfinished: 'reject',
      expired: 'reject',
    });
  });
});
