import { describe, expect, it } from 'vitest';
import { listenForWebhooks } from '../../src/node/webhooks/listen.js';
import { BODY_LIMITS } from '../../src/server/http-io.js';
import { rawStream } from '../helpers/raw-http.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const port = () => server().port;

/** Request line plus the headers a dev-server change and an API call need. */
function head(line: string, extra: string[] = []): string {
  return [
    line,
    `Host: 127.0.0.1:${port()}`,
    'Content-Type: application/json',
    'Authorization: Bearer ak_demo_project',
    ...extra,
  ].join('\r\n');
}

const verifications = () =>
  server()
    .admin.consoleEvents()
    .filter((e) => e.type === 'verification').length;

function expect413(answer: { status: number; headers: Record<string, string>; body: string }, limit: number) {
  expect(answer.status).toBe(413);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({
    status: 413,
    title: 'Content Too Large',
    detail: `Request body over ${limit} bytes`,
  });
}

describe('a body limit counts the bytes read, whatever the framing: 413 and the connection closes', () => {
  it('a 20 KB chunked widget POST is 413, creates nothing, and the next request is served', async () => {
    const answer = await rawStream(port(), head('POST /__widget/verifications HTTP/1.1'), 20_000, {
      prefix: '{"outcome":"pass"}',
    });
    expect413(answer, BODY_LIMITS.widget);
    expect(verifications()).toBe(0);
    const next = await fetch(`${server().url}/__widget/verifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"outcome":"pass"}',
    });
    expect(next.status).toBe(201);
    expect(verifications()).toBe(1);
  });

  it('a chunked body with no Content-Length one byte past the admin limit is 413', async () => {
    const answer = await rawStream(port(), head('POST /__admin/clock HTTP/1.1'), BODY_LIMITS.admin + 1, {
      prefix: '{"advanceMs":1000}',
    });
    expect413(answer, BODY_LIMITS.admin);
  });

  it('a Content-Length over the limit is 413 before one byte of the body is sent', async () => {
    const answer = await rawStream(
      port(),
      head('POST /__widget/verifications HTTP/1.1', ['Content-Length: 1000000000']),
      0,
      { chunked: false },
    );
    expect413(answer, BODY_LIMITS.widget);
  });

  it('a Content-Length lying low: only the declared bytes are the body, the rest is never read as it', async () => {
    // 100 declared, 20 KB sent: the body is the first 100 bytes (cut JSON: 400); what follows is
    // not a request, and the server is still there for the next one.
    const answer = await rawStream(
      port(),
      head('POST /__widget/verifications HTTP/1.1', ['Content-Length: 100']),
      20_000,
      { chunked: false, prefix: '{"outcome":"pass"' },
    );
    expect(answer.status).toBe(400);
    expect(verifications()).toBe(0);
    expect((await fetch(`${server().url}/__admin/stats`)).status).toBe(200);
  });

  it('a sender that never stops is cut off at the limit, not read to its end', async () => {
    const total = 256 * 1024 * 1024;
    const answer = await rawStream(port(), head('POST /taxvalidation/v1/validations/batch HTTP/1.1'), total);
    expect413(answer, BODY_LIMITS.taxBatch);
    // What the socket took beyond the limit is what the kernel buffers held when it closed.
    expect(answer.written).toBeLessThan(BODY_LIMITS.taxBatch + 16 * 1024 * 1024);
  });
});

describe('every route that reads a body reads up to its own limit, and not one byte more', () => {
  const routes: Array<[string, number, string]> = [
    ['POST /__widget/verifications', BODY_LIMITS.widget, '{"outcome":"pass"}'],
    ['POST /__admin/clock', BODY_LIMITS.admin, '{"advanceMs":1}'],
    ['POST /__admin/faults', BODY_LIMITS.admin, '{"rate":0}'],
    ['POST /__admin/verifications', BODY_LIMITS.admin, '{}'],
    ['POST /__admin/providers/VIES', BODY_LIMITS.admin, '{"mode":"sync"}'],
    ['POST /__admin/webhook-endpoints', BODY_LIMITS.admin, '{"url":"http://127.0.0.1:9/x"}'],
    ['POST /__admin/projects', BODY_LIMITS.admin, '{"name":"p"}'],
    ['POST /__admin/audit-events', BODY_LIMITS.auditEvents, '{"count":1}'],
    [
      'POST /taxvalidation/v1/validations',
      BODY_LIMITS.taxItem,
      '{"countryCode":"DE","rawValue":"DE136695976"}',
    ],
    [
      'POST /taxvalidation/v1/schedules',
      BODY_LIMITS.taxItem,
      '{"countryCode":"DE","rawValue":"DE136695976","frequency":"MONTHLY"}',
    ],
    [
      'POST /taxvalidation/v1/validations/batch',
      BODY_LIMITS.taxBatch,
      '{"items":[{"countryCode":"DE","rawValue":"DE136695976"}]}',
    ],
  ];

  it.each(routes)('%s: %i bytes (chunked) are read, one more is 413', async (route, limit, json) => {
    const line = `${route} HTTP/1.1`;
    const atLimit = await rawStream(port(), head(line), limit, { prefix: json });
    expect(atLimit.status, atLimit.body).toBeGreaterThanOrEqual(200);
    expect(atLimit.status, atLimit.body).toBeLessThan(300);
    expect413(await rawStream(port(), head(line), limit + 1, { prefix: json }), limit);
  });

  it('the limits: widget 1 KiB, admin 64 KiB, tax item 4 MiB, batch and audit events 16 MiB', () => {
    expect(BODY_LIMITS).toEqual({
      widget: 1024,
      admin: 64 * 1024,
      taxItem: 4 * 1024 * 1024,
      taxBatch: 16 * 1024 * 1024,
      auditEvents: 16 * 1024 * 1024,
    });
  });
});

describe('the webhook listener (svc webhooks listen) counts the bytes read too', () => {
  it('a chunked delivery past maxBodyBytes is 413 and reaches no handler', async () => {
    const received: unknown[] = [];
    const listener = await listenForWebhooks({ maxBodyBytes: 1024, onEvent: (e) => void received.push(e) });
    try {
      const url = new URL(listener.url);
      const answer = await rawStream(
        Number(url.port),
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json`,
        20_000,
        { prefix: '{"eventType":"x.y","a":1}' },
      );
      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('close');
      expect(received).toHaveLength(0);
      const ok = await fetch(listener.url, { method: 'POST', body: '{"eventType":"x.y","a":1}' });
      expect(ok.status).toBe(200);
    } finally {
      await listener.close();
    }
  });
});
