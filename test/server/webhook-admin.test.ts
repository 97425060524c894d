import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttp, listenHttp } from '../../src/node/http/listen.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const admin = (method: string, path: string, body?: unknown) =>
  rawRequest(server().url, method, `/__admin${path}`, body === undefined ? {} : { body });

let hookUrl = '';
let received = 0;
const hook = createServer((req, res) => {
  received += 1;
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
beforeAll(async () => {
  hookUrl = `${(await listenHttp(hook, '127.0.0.1', 0)).baseUrl}/hook`;
});
afterAll(() => closeHttp(hook));

async function validateOnce() {
  await admin('POST', '/webhook-endpoints', { url: hookUrl });
  await rawRequest(server().url, 'POST', '/taxvalidation/v1/validations', {
    key: TEST_KEY,
    body: { countryCode: 'DE', rawValue: 'DE136695976' },
  });
  await server().admin.drainWebhooks();
}

describe('GET /__admin/webhook-deliveries lists the newest deliveries first', () => {
  it('one record per delivery with id, event id, url, type, attempts, state', async () => {
    await validateOnce();
    const res = await admin('GET', '/webhook-deliveries?limit=5');
    expect(res.status).toBe(200);
    const { deliveries } = res.body as { deliveries: Array<Record<string, unknown>> };
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      id: expect.stringMatching(/^dlv_\d+$/),
      eventId: expect.stringMatching(/^evt_\d+$/),
      url: hookUrl,
      eventType: 'taxvalidation.validation.completed',
      attempts: 1,
      state: 'delivered',
      lastStatus: 204,
      lastError: null,
    });
    const stats = (await admin('GET', '/stats')).body as Record<string, unknown>;
    expect(stats).toMatchObject({ webhooksSent: 1, webhookAttempts: 1, webhooksFailed: 0 });
  });

  it('a limit out of 1..1000 or an unknown state is 422', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'state=nope', 'other=1']) {
      expect((await admin('GET', `/webhook-deliveries?${query}`)).status).toBe(422);
    }
  });
});

describe('POST /__admin/webhook-deliveries/{id}/redeliver sends an ended delivery again', () => {
  it('202 and the endpoint receives it again; 404 for an unknown id', async () => {
    await validateOnce();
    const before = received;
    const { deliveries } = (await admin('GET', '/webhook-deliveries')).body as {
      deliveries: Array<{ id: string }>;
    };
    const res = await admin('POST', `/webhook-deliveries/${deliveries[0]?.id}/redeliver`, {});
    expect(res.status).toBe(202);
    await server().admin.drainWebhooks();
    expect(received).toBe(before + 1);
    expect((await admin('POST', '/webhook-deliveries/dlv_424242/redeliver', {})).status).toBe(404);
  });
});

describe('GET and POST /__admin/webhook-retries read and change the retry schedule', () => {
  it('defaults to 1 s, 5 s, 30 s, 2 min, 10 min; a bad schedule is 422', async () => {
    expect((await admin('GET', '/webhook-retries')).body).toEqual({
      retryDelaysMs: [1000, 5000, 30_000, 120_000, 600_000],
      timeoutMs: 5000,
    });
    const res = await admin('POST', '/webhook-retries', { retryDelaysMs: [0, 10] });
    expect(res.body).toEqual({ retryDelaysMs: [0, 10], timeoutMs: 5000 });
    expect((await admin('POST', '/webhook-retries', { retryDelaysMs: [-1] })).status).toBe(422);
    expect((await admin('POST', '/webhook-retries', { retryDelaysMs: Array(21).fill(0) })).status).toBe(422);
    server().admin.configureWebhookRetries({ retryDelaysMs: [1000, 5000, 30_000, 120_000, 600_000] });
  });
});

describe('POST /__admin/faults takes webhook delivery kinds', () => {
  it('webhookLost at rate 1: the event is recorded as lost and counted as failed', async () => {
    expect((await admin('POST', '/faults', { rate: 1, kinds: ['webhookLost'] })).status).toBe(200);
    await validateOnce();
    const { deliveries } = (await admin('GET', '/webhook-deliveries')).body as { deliveries: unknown[] };
    expect(deliveries[0]).toMatchObject({ state: 'lost', attempts: 0 });
    expect((await admin('GET', '/stats')).body).toMatchObject({
      webhooksFailed: 1,
      faultsInjected: { webhookLost: 1 },
    });
  });
});
