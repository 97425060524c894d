import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/botcheck-express.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let app: Server;
let url = '';
let client: SvcClient;

beforeAll(async () => {
  client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
  app = createApp(client, { policy: { kind: 'multiStage' } }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => app.once('listening', resolve));
  url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/contact`;
});
afterEach(() => client.botCheck.clearVerifyCache());
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await client.close();
});

const postForm = (fields: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
const postJson = (body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('example botcheck-express.ts: accept passes the request to the route', () => {
  it('a passing token in a form reaches the handler, which never sees the token', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await postForm({ message: 'hello', 'svc-verification-token': token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: ['message'], decision: 'accept' });
  });

  it('a passing token in a JSON body works the same', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await postJson({ email: 'a@example.com', 'svc-verification-token': token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: ['email'], decision: 'accept' });
  });
});

describe('example botcheck-express.ts: challenge is 401, reject is 403', () => {
  it('a middling score asks for an extra check', async () => {
    const { token } = server().admin.createVerification({ score: 0.5 });
    const res = await postForm({ 'svc-verification-token': token });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ decision: 'challenge' });
  });

  it('a failed verification and a reused token are rejected', async () => {
    const failed = server().admin.createVerification({ passed: false });
    expect((await postForm({ 'svc-verification-token': failed.token })).status).toBe(403);
    const once = server().admin.createVerification({ score: 0.1 });
    expect((await postForm({ 'svc-verification-token': once.token })).status).toBe(200);
    // A replay is refused by the client itself, and by the service once the client forgot it.
    expect((await postForm({ 'svc-verification-token': once.token })).status).toBe(403);
    client.botCheck.clearVerifyCache();
    expect((await postForm({ 'svc-verification-token': once.token })).status).toBe(403);
  });
});

describe('example botcheck-express.ts: fail closed', () => {
  it('no token, a malformed token or two different tokens: 403 without calling the service', async () => {
    expect((await postForm({ message: 'no token' })).status).toBe(403);
    expect((await postForm({ 'svc-verification-token': 'garbage' })).status).toBe(403);
    const a = server().admin.createVerification({ score: 0.1 });
    const b = server().admin.createVerification({ score: 0.1 });
    const twice = new URLSearchParams([
      ['svc-verification-token', a.token],
      ['svc-verification-token', b.token],
    ]);
    expect((await fetch(url, { method: 'POST', body: twice })).status).toBe(403);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('the service failing rejects', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    expect((await postForm({ 'svc-verification-token': token })).status).toBe(403);
  });

  it('a body over the parser limit is a 413 without a stack trace', async () => {
    const res = await postForm({ message: 'x'.repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'request failed' });
  });

  it('a malformed JSON body is a 400 without a stack trace', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'request failed' });
  });
});
