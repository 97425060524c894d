import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContactFormHandler } from '../../examples/botcheck-node-http.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let app: Server;
let appUrl = '';
let client: SvcClient;

beforeAll(async () => {
  vi.spyOn(console, 'info').mockImplementation(() => {});
  client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
  app = createServer(createContactFormHandler(client, { policy: { kind: 'multiStage' } }));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/contact`;
});
afterEach(() => client.botCheck.clearVerifyCache());
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await client.close();
  vi.restoreAllMocks();
});

const postForm = (fields: Record<string, string>) =>
  fetch(appUrl, { method: 'POST', body: new URLSearchParams(fields) });

describe('example botcheck-node-http.ts against the reference server', () => {
  it('accepts a form with a passing token (200), also as JSON', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const res = await postForm({ message: 'hello', 'svc-verification-token': token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ decision: 'accept', message: 'hello' });
    const json = server().admin.createVerification({ score: 0.1 });
    const viaJson = await fetch(appUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ 'svc-verification-token': json.token }),
    });
    expect(viaJson.status).toBe(200);
  });

  it('a double submit of the same form: one is accepted, the replay rejected, one fetch', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const [a, b] = await Promise.all([
      postForm({ 'svc-verification-token': token }),
      postForm({ 'svc-verification-token': token }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect(server().admin.stats().verificationFetches).toBe(1);
  });

  it('asks for an extra check (401) and rejects (403) by the policy', async () => {
    const medium = server().admin.createVerification({ score: 0.5 });
    expect((await postForm({ 'svc-verification-token': medium.token })).status).toBe(401);
    const failed = server().admin.createVerification({ passed: false });
    expect((await postForm({ 'svc-verification-token': failed.token })).status).toBe(403);
  });

  it('rejects a missing or malformed token without calling the service', async () => {
    expect((await postForm({ message: 'no token' })).status).toBe(403);
    expect((await postForm({ 'svc-verification-token': 'garbage' })).status).toBe(403);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('fails closed when the service fails', async () => {
    const { token } = server().admin.createVerification();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    expect((await postForm({ 'svc-verification-token': token })).status).toBe(403);
  });

  it('answers 405 to other methods and 413 to bodies over 64 KiB, also without a content-length', async () => {
    expect((await fetch(appUrl)).status).toBe(405);
    expect((await fetch(appUrl, { method: 'POST', body: 'x'.repeat(70 * 1024) })).status).toBe(413);
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 70; i++) controller.enqueue(new Uint8Array(1024).fill(120));
        controller.close();
      },
    });
    const streamed = await fetch(appUrl, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});
