import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../examples/botcheck-fastify.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let app: FastifyInstance;
let client: SvcClient;

beforeAll(async () => {
  client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
  app = buildServer(client, { policy: { kind: 'multiStage' } });
  await app.ready();
});
afterEach(() => client.botCheck.clearVerifyCache());
afterAll(async () => {
  await app.close();
  await client.close();
});

const postForm = (payload: string) =>
  app.inject({
    method: 'POST',
    url: '/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload,
  });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('example botcheck-fastify.ts: accept runs the handler', () => {
  it('an urlencoded form with a passing token', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await postForm(form({ message: 'hi', 'svc-verification-token': token }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: ['message'], decision: 'accept' });
  });

  it('a JSON body with a passing token', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await app.inject({
      method: 'POST',
      url: '/contact',
      payload: { email: 'a@example.com', 'svc-verification-token': token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: ['email'], decision: 'accept' });
  });

  it('the legacy API through the same hook', async () => {
    const legacy = buildServer(client, { api: 'legacy' });
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await legacy.inject({
      method: 'POST',
      url: '/contact',
      payload: { 'svc-verification-token': token },
    });
    expect(res.statusCode).toBe(200);
    await legacy.close();
  });
});

describe('example botcheck-fastify.ts: challenge is 401, reject is 403', () => {
  it('by the policy', async () => {
    const medium = server().admin.createVerification({ score: 0.5 });
    const challenged = await postForm(form({ 'svc-verification-token': medium.token }));
    expect(challenged.statusCode).toBe(401);
    expect(challenged.json()).toEqual({ decision: 'challenge' });
    const high = server().admin.createVerification({ score: 0.95 });
    const rejected = await postForm(form({ 'svc-verification-token': high.token }));
    expect(rejected.statusCode).toBe(403);
    expect(rejected.json()).toEqual({ decision: 'reject' });
  });
});

describe('example botcheck-fastify.ts: fail closed', () => {
  it('no token, garbage, or a token given twice with different values: 403, nothing sent', async () => {
    expect((await postForm(form({ message: 'x' }))).statusCode).toBe(403);
    expect((await postForm(form({ 'svc-verification-token': 'garbage' }))).statusCode).toBe(403);
    const a = server().admin.createVerification({ score: 0.1 });
    const b = server().admin.createVerification({ score: 0.1 });
    const twice = `svc-verification-token=${a.token}&svc-verification-token=${b.token}`;
    expect((await postForm(twice)).statusCode).toBe(403);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('an expired result and an unreachable service reject', async () => {
    const expired = server().admin.createVerification({ score: 0.1, validityMs: 1000 });
    server().admin.advanceClock(2000);
    expect((await postForm(form({ 'svc-verification-token': expired.token }))).statusCode).toBe(403);
    const { token } = server().admin.createVerification({ score: 0.1 });
    server().admin.setFaults({ rate: 1, kinds: ['reset'], seed: 1 });
    expect((await postForm(form({ 'svc-verification-token': token }))).statusCode).toBe(403);
  });
});
