import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import {
  registerWebhookEndpoint,
  unregisterWebhookEndpoint,
} from '../../src/tax/webhooks/register-endpoint.js';
import { validDe } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });

interface Received {
  body: Buffer;
  contentType: string | undefined;
}

/** A local HTTP receiver on port 0 that records every POST; `answer` picks the status. */
async function receiver(answer: (n: number, body: Buffer) => number = () => 200) {
  const received: Received[] = [];
  const app: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const status = answer(received.length, body);
      if (status < 300) received.push({ body, contentType: req.headers['content-type'] });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const { port } = app.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => app.close(() => resolve())),
  };
}

let client: SvcClient;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(async () => {
  await client.close();
  for (const close of closers.splice(0)) await close();
});

/** Starts `svc webhooks listen --register --forward-to`, waits for its registration, then sends `n` async validations. */
async function listenAndValidate(forwardTo: string, n: number, extra: string[] = []) {
  server().admin.setProviderMode('VIES', 'async');
  const before = server().admin.webhookEndpoints().length;
  const listen = runSvc(
    [
      'webhooks',
      'listen',
      '--register',
      server().url,
      '--forward-to',
      forwardTo,
      '--max-events',
      String(n),
      ...extra,
    ],
    { env: env() },
  );
  while (server().admin.webhookEndpoints().length === before)
    await new Promise((resolve) => setImmediate(resolve));
  for (let i = 1; i <= n; i++) {
    const pending = await client.tax.validate({ countryCode: 'DE', rawValue: validDe(i * 7919) });
    expect(pending.kind).toBe('pending');
  }
  return listen;
}

describe('webhooks listen --forward-to: every event is POSTed once to the app, body byte-identical', () => {
  it('forwards each event once with its original bytes and content type; the endpoint is gone after exit', async () => {
    const app = await receiver();
    closers.push(app.close);
    // A second endpoint records what the server sent, to compare bytes with.
    const capture = await receiver();
    closers.push(capture.close);
    server().admin.addWebhookEndpoint(capture.url);

    const run = await listenAndValidate(app.url, 6);
    expect(run.code).toBe(0);
    await server().admin.drainWebhooks();
    expect(app.received).toHaveLength(6);
    const sorted = (list: Received[]) => list.map((r) => r.body.toString('base64')).sort();
    expect(sorted(app.received)).toEqual(sorted(capture.received));
    expect(new Set(sorted(app.received)).size).toBe(6);
    expect(app.received.map((r) => r.contentType)).toEqual(capture.received.map((r) => r.contentType));
    expect(run.stderr).toMatch(/forwarding events to http:\/\/127\.0\.0\.1:\d+\/hooks/);
    // Only the capture endpoint is left.
    expect(server().admin.webhookEndpoints()).toEqual([capture.url]);
  });

  it('a failed forward is reported on stderr and answered 502, so the sender delivers it again', async () => {
    // The app fails the first attempt of every event, then accepts it.
    const seen = new Set<string>();
    const app = await receiver((_, body) => {
      const key = body.toString('base64');
      if (seen.has(key)) return 204;
      seen.add(key);
      return 500;
    });
    closers.push(app.close);
    const run = await listenAndValidate(app.url, 2);
    expect(run.code).toBe(0);
    expect(app.received).toHaveLength(2);
    expect(run.stderr).toMatch(
      /forwarding a taxvalidation\.validation\.\w+ event failed: .* answered HTTP 500; answered 502/,
    );
    expect(server().admin.webhookEndpoints()).toEqual([]);
  });

  it('a --forward-to that is not an http(s) URL is a usage error', async () => {
    const run = await runSvc(['webhooks', 'listen', '--forward-to', 'ftp://example.test/x'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--forward-to takes an http\(s\) URL/);
  });
});

describe('the admin API lists and removes webhook endpoints; unregisterWebhookEndpoint undoes registerWebhookEndpoint', () => {
  it('GET lists, DELETE ?url= removes, a second DELETE is 404 (not an error for the helper)', async () => {
    const url = 'http://127.0.0.1:9/hook';
    await registerWebhookEndpoint(server().url, url);
    const list = async () =>
      ((await (await fetch(`${server().url}/__admin/webhook-endpoints`)).json()) as { endpoints: string[] })
        .endpoints;
    expect(await list()).toEqual([url]);
    await unregisterWebhookEndpoint(server().url, url);
    expect(await list()).toEqual([]);
    const again = await fetch(`${server().url}/__admin/webhook-endpoints?url=${encodeURIComponent(url)}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(again.status).toBe(404);
    await expect(unregisterWebhookEndpoint(server().url, url)).resolves.toBeUndefined();
  });

  it('DELETE with a JSON body', async () => {
    server().admin.addWebhookEndpoint('http://127.0.0.1:9/a');
    const res = await fetch(`${server().url}/__admin/webhook-endpoints`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/a' }),
    });
    expect(res.status).toBe(200);
    expect(server().admin.webhookEndpoints()).toEqual([]);
  });
});
