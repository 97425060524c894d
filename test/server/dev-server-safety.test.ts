import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenForWebhooks, type WebhookListener } from '../../src/node/webhooks/listen.js';
import { type ListeningServer, listen } from '../../src/server/app.js';
import type { ServerModule } from '../../src/server/module.js';
import { ServerState } from '../../src/server/state.js';
import { type RawAnswer, rawHttp } from '../helpers/raw-http.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const port = () => server().port;
const own = () => `127.0.0.1:${port()}`;

/** A request with `Host` set to the server's own name unless `host` says otherwise. */
function request(
  line: string,
  headers: Record<string, string> = {},
  body = '',
  host: string | null = own(),
): Promise<RawAnswer> {
  const lines = [line];
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== '' || !line.startsWith('GET')) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return rawHttp(port(), lines.join('\r\n'), body);
}

/** The admin stats without the clock reading and the count of stats reads, to compare before and after. */
async function stats(): Promise<unknown> {
  const answer = await request('GET /__admin/stats HTTP/1.1');
  expect(answer.status).toBe(200);
  const { now: _now, ...rest } = JSON.parse(answer.body) as { now: string; requestsByRoute: object };
  delete (rest.requestsByRoute as Record<string, number>)['GET /__admin/stats'];
  return rest;
}

const FAULTS = JSON.stringify({ rate: 1, kinds: ['status500'], seed: 1 });
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('a request target that does not parse answers 400 and never stops the server', () => {
  const targets = [
    ['GET // (an <img src="http://127.0.0.1:4010//">)', 'GET // HTTP/1.1'],
    ['GET http://[::1', 'GET http://[::1 HTTP/1.1'],
    ['an absolute-form target', 'GET http://evil.example/__admin/stats HTTP/1.1'],
    ['a scheme-relative target', 'GET //evil.example/__admin/stats HTTP/1.1'],
    ['a backslash target', 'GET /\\evil.example/ HTTP/1.1'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1'],
    ['an over-long target', `GET /${'a'.repeat(9000)} HTTP/1.1`],
    ['bad percent-encoding', 'GET /captcha/v2/verifications/%E0%A4%A/results HTTP/1.1'],
    ['bad percent-encoding on an admin path', 'POST /__admin/verifications/%ZZ/finish HTTP/1.1'],
  ] as const;

  it.each(targets)('%s', async (_name, line) => {
    const answer = await request(line, JSON_TYPE);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect((await request('GET /__admin/stats HTTP/1.1')).status).toBe(200);
  });

  it('a target past the header limit is refused by Node itself, and the server keeps answering', async () => {
    const answer = await request(`GET /${'a'.repeat(20_000)} HTTP/1.1`);
    expect(answer.status).toBe(431);
    expect((await request('GET /__admin/stats HTTP/1.1')).status).toBe(200);
  });

  it('the refused targets are logged without their text', async () => {
    await request('GET // HTTP/1.1');
    expect(server().admin.requests().at(-1)).toMatchObject({ path: '(unparsable target)', status: 400 });
  });
});

describe('a Host other than the bound loopback name or address answers 403 (DNS rebinding)', () => {
  it('the loopback names with the port are served, in any case', async () => {
    for (const host of [own(), `localhost:${port()}`, `[::1]:${port()}`, `LocalHost:${port()}`]) {
      expect((await request('GET /__admin/stats HTTP/1.1', {}, '', host)).status, host).toBe(200);
    }
  });

  it.each([
    ['a rebinding domain', () => `evil.example:${port()}`],
    ['the right name on another port', () => '127.0.0.1:1'],
    ['the name without the port', () => '127.0.0.1'],
    ['a name that only starts like localhost', () => `localhost.evil.example:${port()}`],
  ])('%s', async (_name, host) => {
    const read = await request('GET /__admin/requests HTTP/1.1', {}, '', host());
    expect(read.status).toBe(403);
    expect(read.body).not.toContain('"requests"');
  });

  it('a request without Host (HTTP/1.0) is 403', async () => {
    expect((await request('GET /__admin/stats HTTP/1.0', {}, '', null)).status).toBe(403);
  });

  it('a foreign Host changes nothing: admin POSTs and API calls, checked through GET /__admin/stats', async () => {
    const before = await stats();
    const host = `evil.example:${port()}`;
    expect((await request('POST /__admin/faults HTTP/1.1', JSON_TYPE, FAULTS, host)).status).toBe(403);
    expect((await request('POST /__admin/reset HTTP/1.1', JSON_TYPE, '{}', host)).status).toBe(403);
    const api = await request(
      'GET /taxvalidation/v1/validation-results/x HTTP/1.1',
      { Authorization: 'Bearer ak_demo_project' },
      '',
      host,
    );
    expect(api.status).toBe(403);
    expect(await stats()).toEqual(before);
    expect(server().admin.stats().faultsInjected).toEqual({});
  });
});

describe('admin mutations need Content-Type: application/json and, with an Origin, the own origin', () => {
  it('a text/plain POST (no CORS preflight) is 415 and changes nothing', async () => {
    server().admin.addWebhookEndpoint('http://127.0.0.1:9/kept');
    const before = await stats();
    const plain = { 'Content-Type': 'text/plain' };
    expect((await request('POST /__admin/faults HTTP/1.1', plain, FAULTS)).status).toBe(415);
    expect((await request('POST /__admin/reset HTTP/1.1', plain, '{}')).status).toBe(415);
    const hook = JSON.stringify({ url: 'http://attacker.example/' });
    expect((await request('POST /__admin/webhook-endpoints HTTP/1.1', plain, hook)).status).toBe(415);
    const seed = JSON.stringify({ count: 5_000_000 });
    expect((await request('POST /__admin/audit-events HTTP/1.1', plain, seed)).status).toBe(415);
    expect(await stats()).toEqual(before);
    expect(server().admin.webhookEndpoints()).toEqual(['http://127.0.0.1:9/kept']);
  });

  it('a POST without a body or Content-Type (fetch no-cors, form) is 415', async () => {
    server().admin.addWebhookEndpoint('http://127.0.0.1:9/kept');
    expect((await request('POST /__admin/reset HTTP/1.1')).status).toBe(415);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await request('POST /__admin/reset HTTP/1.1', form, 'a=1')).status).toBe(415);
    expect((await request('DELETE /__admin/webhook-endpoints?url=x HTTP/1.1')).status).toBe(415);
    expect(server().admin.webhookEndpoints()).toEqual(['http://127.0.0.1:9/kept']);
  });

  it.each([
    ['another site', 'http://evil.example'],
    ['another loopback page', 'http://localhost:3000'],
    ['an opaque origin', 'null'],
  ])('JSON from %s is 403 and changes nothing', async (_name, origin) => {
    const before = await stats();
    const answer = await request('POST /__admin/faults HTTP/1.1', { ...JSON_TYPE, Origin: origin }, FAULTS);
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(await stats()).toEqual(before);
  });

  it("JSON from the server's own origin (the console) or without Origin (curl, the CLI) is applied", async () => {
    for (const origin of [`http://${own()}`, `http://localhost:${port()}`]) {
      const answer = await request(
        'POST /__admin/clock HTTP/1.1',
        { ...JSON_TYPE, Origin: origin },
        '{"advanceMs":1}',
      );
      expect(answer.status, origin).toBe(200);
    }
    const typed = { 'Content-Type': 'Application/JSON; charset=utf-8' };
    expect((await request('POST /__admin/clock HTTP/1.1', typed, '{"advanceMs":1}')).status).toBe(200);
  });

  it('the API routes keep their own rules (a key in a header, which a page cannot send without a preflight)', async () => {
    const answer = await request(
      'POST /taxvalidation/v1/validations HTTP/1.1',
      { Authorization: 'Bearer ak_demo_project', 'Content-Type': 'application/json' },
      JSON.stringify({ countryCode: 'DE', rawValue: 'DE136695976' }),
    );
    expect(answer.status).toBe(201);
  });
});

describe('a cors: loopback route (the widget endpoint) answers loopback pages with CORS and no other origin', () => {
  let app: ListeningServer;
  let created = 0;
  const widgetModule: ServerModule = {
    routes: [
      {
        method: 'POST',
        pattern: '/__widget/verifications',
        cors: 'loopback',
        handle: ({ res }) => {
          created += 1;
          res.writeHead(201, { 'content-length': 0 });
          res.end();
        },
      },
    ],
  };
  const send = (line: string, headers: Record<string, string>, body = '') =>
    rawHttp(
      app.port,
      [line, `Host: 127.0.0.1:${app.port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join(
        '\r\n',
      ) + `\r\nContent-Length: ${body.length}`,
      body,
    );

  beforeAll(async () => {
    app = await listen(new ServerState(), [widgetModule], {});
  });
  afterEach(() => {
    created = 0;
  });
  afterAll(() => app.close());

  it.each(['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080'])(
    'preflight and POST from %s',
    async (origin) => {
      const preflight = await send('OPTIONS /__widget/verifications HTTP/1.1', {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
      const post = await send(
        'POST /__widget/verifications HTTP/1.1',
        { ...JSON_TYPE, Origin: origin },
        '{}',
      );
      expect(post.status).toBe(201);
      expect(post.headers['access-control-allow-origin']).toBe(origin);
      expect(created).toBe(1);
    },
  );

  it.each(['http://evil.example', 'https://localhost:5173', 'http://localhost.evil.example:80', 'null'])(
    '%s: preflight and POST are 403, nothing created',
    async (origin) => {
      const preflight = await send('OPTIONS /__widget/verifications HTTP/1.1', { Origin: origin });
      expect(preflight.status).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const plain = { 'Content-Type': 'text/plain', Origin: origin };
      expect((await send('POST /__widget/verifications HTTP/1.1', plain, '{}')).status).toBe(403);
      expect(created).toBe(0);
    },
  );

  it('a loopback page still needs JSON (415 for text/plain)', async () => {
    const plain = { 'Content-Type': 'text/plain', Origin: 'http://localhost:5173' };
    expect((await send('POST /__widget/verifications HTTP/1.1', plain, '{}')).status).toBe(415);
    expect(created).toBe(0);
  });
});

describe('svc webhooks listen answers only its own Host (its URL holds a secret path token)', () => {
  let listener: WebhookListener;
  const events: unknown[] = [];
  beforeAll(async () => {
    listener = await listenForWebhooks({ onEvent: (event) => void events.push(event) });
  });
  afterAll(() => listener.close());

  it('a rebinding page cannot reach the token path; the own Host can', async () => {
    const url = new URL(listener.url);
    const body = JSON.stringify({
      eventType: 'taxvalidation.validation.completed',
      validationResultId: 'r1',
    });
    const post = (host: string) =>
      rawHttp(
        Number(url.port),
        [`POST ${url.pathname} HTTP/1.1`, `Host: ${host}`, 'Content-Type: application/json'].join('\r\n') +
          `\r\nContent-Length: ${body.length}`,
        body,
      );
    expect((await post(`evil.example:${url.port}`)).status).toBe(403);
    expect(events).toHaveLength(0);
    expect((await rawHttp(Number(url.port), 'GET // HTTP/1.1\r\nHost: x')).status).toBe(403);
    const answer = await post(url.host);
    expect(answer.status).not.toBe(403);
  });
});
