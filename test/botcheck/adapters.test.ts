import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireHuman as expressRequireHuman } from '../../src/adapters/express.js';
import { requireHuman as fastifyRequireHuman } from '../../src/adapters/fastify.js';
import {
  type BotCheckDecisionEvent,
  botCheckOf,
  type VerifyRequestOptions,
  verifyRequest,
} from '../../src/adapters/verify-request.js';
import type { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

/** One POST as the visitor sends it. */
interface Post {
  body: string;
  contentType?: string;
  headers?: Record<string, string>;
}
interface Answer {
  status: number;
  json: unknown;
}
/** An app guarded by one adapter: `post` sends a request through it. */
interface Harness {
  post(post: Post): Promise<Answer>;
  close(): Promise<void>;
}

const form = (fields: Record<string, string>): Post => ({
  body: new URLSearchParams(fields).toString(),
  contentType: 'application/x-www-form-urlencoded',
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Harness> {
  const app = createServer(handler);
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/contact`;
  return {
    async post({ body, contentType = 'text/plain', headers = {} }) {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': contentType, ...headers },
      });
      const text = await res.text();
      return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : text };
    },
    close: () => new Promise((resolve) => app.close(() => resolve())),
  };
}

const ADAPTERS: Record<string, (c: SvcClient, options: VerifyRequestOptions) => Promise<Harness>> = {
  // Express without a body parser: the adapter reads the raw body itself, within maxBodyBytes.
  express: (c, options) => {
    const app = express();
    app.post('/contact', expressRequireHuman(c, options), (req, res) => {
      res.json({ decision: 'accept', attached: req.botCheck?.decision });
    });
    return listen(app);
  },
  fastify: async (c, options) => {
    const app = Fastify({ bodyLimit: options.maxBodyBytes ?? 64 * 1024 });
    app.decorateRequest('botCheck', undefined);
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, new URLSearchParams(body as string)),
    );
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_r, body, done) => done(null, body));
    app.post('/contact', { preHandler: fastifyRequireHuman(c, options) }, async (request) => ({
      decision: 'accept',
      attached: request.botCheck?.decision,
    }));
    await app.ready();
    return {
      async post({ body, contentType = 'text/plain', headers = {} }) {
        const res = await app.inject({
          method: 'POST',
          url: '/contact',
          payload: body,
          headers: { 'content-type': contentType, ...headers },
        });
        return { status: res.statusCode, json: res.json() };
      },
      close: () => app.close(),
    };
  },
  'node:http': (c, options) =>
    listen((req, res) => {
      void verifyRequest(c, req, options).then((check) => {
        res.writeHead(check.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            check.decision === 'accept'
              ? { decision: 'accept', attached: botCheckOf(req)?.decision }
              : check.body,
          ),
        );
      });
    }),
  'Web Request': async (c, options) => ({
    async post({ body, contentType = 'text/plain', headers = {} }) {
      const request = new Request('http://127.0.0.1/contact', {
        method: 'POST',
        body,
        headers: { 'content-type': contentType, ...headers },
      });
      const check = await verifyRequest(c, request, options);
      // The handler can still read the original body.
      const json =
        check.decision === 'accept'
          ? { decision: 'accept', attached: botCheckOf(request)?.decision }
          : check.body;
      expect(await request.text()).toBe(body);
      return { status: check.status, json };
    },
    close: async () => {},
  }),
};

let downUrl = '';
beforeAll(async () => {
  const gone = await createReferenceServer();
  downUrl = gone.url;
  await gone.close();
});

describe.each(Object.keys(ADAPTERS))('adapter %s: the same answers with the real framework', (kind) => {
  const open: Harness[] = [];
  afterAll(async () => {
    await Promise.all(open.map((h) => h.close()));
  });
  const app = async (options: VerifyRequestOptions = {}, c: SvcClient = client()) => {
    const h = await ADAPTERS[kind]!(c, { policy: { kind: 'multiStage' }, ...options });
    open.push(h);
    return h;
  };

  it('accept: the handler runs with the outcome attached to the request', async () => {
    const { token } = server().admin.createVerification({ score: 0.1 });
    const answer = await (await app()).post(form({ message: 'hi', 'svc-verification-token': token }));
    expect(answer).toEqual({ status: 200, json: { decision: 'accept', attached: 'accept' } });
  });

  it('accept from a JSON body and from the header', async () => {
    const h = await app();
    const a = server().admin.createVerification({ score: 0.1 });
    const json = await h.post({
      body: JSON.stringify({ 'svc-verification-token': a.token }),
      contentType: 'application/json',
    });
    expect(json.status).toBe(200);
    const b = server().admin.createVerification({ score: 0.1 });
    const header = await h.post({
      body: JSON.stringify({}),
      contentType: 'application/json',
      headers: { 'svc-verification-token': b.token },
    });
    expect(header.status).toBe(200);
  });

  it('challenge: 401 {decision: challenge}, reject: 403 {decision: reject}, nothing more', async () => {
    const h = await app();
    const medium = server().admin.createVerification({ score: 0.5 });
    expect(await h.post(form({ 'svc-verification-token': medium.token }))).toEqual({
      status: 401,
      json: { decision: 'challenge' },
    });
    const failed = server().admin.createVerification({ passed: false });
    expect(await h.post(form({ 'svc-verification-token': failed.token }))).toEqual({
      status: 403,
      json: { decision: 'reject' },
    });
  });

  it('a replayed token is rejected; reasons go to onDecision with latency and id', async () => {
    const events: BotCheckDecisionEvent[] = [];
    const h = await app({ onDecision: (e) => events.push(e) });
    const { token, verificationId } = server().admin.createVerification({ score: 0.1 });
    expect((await h.post(form({ 'svc-verification-token': token }))).status).toBe(200);
    expect(await h.post(form({ 'svc-verification-token': token }))).toEqual({
      status: 403,
      json: { decision: 'reject' },
    });
    expect(events.map((e) => [e.decision, e.reasons[0]?.code, e.verificationId])).toEqual([
      ['accept', 'SCORE_LOW', verificationId],
      ['reject', 'REPLAYED', verificationId],
    ]);
    expect(events.every((e) => e.latencyMs >= 0 && e.request !== undefined)).toBe(true);
  });

  it('a malformed or missing token: 403 without calling the service', async () => {
    const h = await app();
    expect((await h.post(form({ 'svc-verification-token': 'garbage' }))).status).toBe(403);
    expect((await h.post(form({ message: 'no token' }))).status).toBe(403);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('a body over the limit: 413, no service call', async () => {
    const h = await app({ maxBodyBytes: 1024 });
    const { token } = server().admin.createVerification({ score: 0.1 });
    const answer = await h.post(form({ 'svc-verification-token': token, message: 'x'.repeat(4096) }));
    expect(answer.status).toBe(413);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('service down: fail closed (403), and accept only when failOpen is set', async () => {
    const id = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';
    const down = client(DEMO.projectKey, { baseUrl: downUrl });
    expect((await (await app({}, down)).post(form({ 'svc-verification-token': id }))).status).toBe(403);
    const open = await (await app({ failOpen: true }, down)).post(
      form({ 'svc-verification-token': `${id.slice(0, -1)}0` }),
    );
    expect(open.status).toBe(200);
  });
});

describe('adapters refuse bad options at startup', () => {
  it.each([
    ['express', expressRequireHuman],
    ['fastify', fastifyRequireHuman],
  ] as const)('%s: a bad policy or binding throws when the middleware is made', (_, make) => {
    expect(() => make(client(), { policy: { kind: 'threshold', threshold: 2 } })).toThrow(/threshold/);
    expect(() => make(client(), { expectedOrigins: ['nope'] })).toThrow(/expectedOrigins/);
    expect(() => make(client(), { maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  });
});
