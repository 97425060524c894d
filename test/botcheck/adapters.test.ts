import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireHuman as expressRequireHuman } from '../../src/adapters/express.js';
import { requireHuman as fastifyRequireHuman } from '../../src/adapters/fastify.js';
import {
  type BotCheckDecisionEvent,
  botCheckOf,
  type VerifyRequestOptions,
  verifyRequest,
} from '../../src/botcheck/verify-request.js';
import type { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

/** One POST as the visitor sends it. */
interface Post {
  body: string | Uint8Array;
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
  // The same middleware in an Express 4 app (peer range ^4.21 || ^5).
  'express 4': (c, options) => {
    const app = express4();
    // Cast: this repository types 'express' as 5; an Express 4 app's 'express' types are 4.
    const guard = expressRequireHuman(c, options) as unknown as express4.RequestHandler;
    app.post('/contact', guard, (req, res) => {
      res.json({
        decision: 'accept',
        attached: (req as { botCheck?: { decision: string } }).botCheck?.decision,
      });
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
      expect(new Uint8Array(await request.arrayBuffer())).toEqual(
        typeof body === 'string' ? new TextEncoder().encode(body) : body,
      );
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

/** A multipart/form-data body as a browser builds it from a form (FormData through a Request). */
async function multipart(fields: [string, string | Blob][]): Promise<Post> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const request = new Request('http://127.0.0.1/contact', { method: 'POST', body: form });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** A file field whose bytes are not text. */
const upload = () => new File([new Uint8Array([0, 0xff, 0xfe, 0x80, 10, 13])], 'photo.bin');

// Fastify parses bodies itself (multipart needs @fastify/multipart there): the other adapters
// read the raw body and parse a multipart form after the byte limit.
describe.each(['express', 'express 4', 'node:http', 'Web Request'])(
  'multipart forms (%s): the token field of a multipart/form-data body, within the same body limit',
  (kind) => {
    const open: Harness[] = [];
    afterAll(async () => {
      await Promise.all(open.map((h) => h.close()));
    });
    const app = async (options: VerifyRequestOptions = {}) => {
      const h = await ADAPTERS[kind]!(client(), { policy: { kind: 'multiStage' }, ...options });
      open.push(h);
      return h;
    };

    it('a form with a file field verifies', async () => {
      const { token } = server().admin.createVerification({ score: 0.1 });
      const post = await multipart([
        ['message', 'hi'],
        ['attachment', upload()],
        ['svc-verification-token', token],
      ]);
      expect(await (await app()).post(post)).toEqual({
        status: 200,
        json: { decision: 'accept', attached: 'accept' },
      });
    });

    it('a multipart body over the limit (a huge part): 413, no service call', async () => {
      const { token } = server().admin.createVerification({ score: 0.1 });
      const post = await multipart([
        ['svc-verification-token', token],
        ['attachment', new File(['x'.repeat(8192)], 'big.txt')],
      ]);
      expect((await (await app({ maxBodyBytes: 4096 })).post(post)).status).toBe(413);
      expect(server().admin.requests()).toHaveLength(0);
    });

    it('a file field named like the token, or two different token values: 403, no service call', async () => {
      const { token } = server().admin.createVerification({ score: 0.1 });
      const h = await app();
      const asFile = await multipart([['svc-verification-token', new File([token], 'token.txt')]]);
      expect((await h.post(asFile)).status).toBe(403);
      const twice = await multipart([
        ['svc-verification-token', token],
        ['svc-verification-token', `${token}x`],
      ]);
      expect((await h.post(twice)).status).toBe(403);
      expect(server().admin.requests()).toHaveLength(0);
    });

    it.each([
      ['no boundary', () => 'multipart/form-data'],
      ['another boundary than the body', () => 'multipart/form-data; boundary=other'],
      ['a 5,000-character boundary', () => `multipart/form-data; boundary=${'b'.repeat(5000)}`],
      ['a boundary of quotes and separators', () => 'multipart/form-data; boundary="\\";,=--"'],
    ])('a hostile boundary (%s): 403 BODY_UNREADABLE, no service call', async (_, contentType) => {
      const { token } = server().admin.createVerification({ score: 0.1 });
      const post = await multipart([['svc-verification-token', token]]);
      const codes: string[] = [];
      const h = await app({ onDecision: (e) => codes.push(e.reasons[0]?.code ?? '') });
      const answer = await h.post({ ...post, contentType: contentType() });
      expect(answer).toEqual({ status: 403, json: { decision: 'reject' } });
      expect(codes).toEqual(['BODY_UNREADABLE']);
      expect(server().admin.requests()).toHaveLength(0);
    });

    it('a body cut short of its closing boundary: 403, no service call', async () => {
      const { token } = server().admin.createVerification({ score: 0.1 });
      const post = await multipart([['svc-verification-token', token]]);
      const cut = (post.body as Uint8Array).subarray(0, (post.body as Uint8Array).length - 10);
      const codes: string[] = [];
      const h = await app({ onDecision: (e) => codes.push(e.reasons[0]?.code ?? '') });
      expect((await h.post({ ...post, body: cut })).status).toBe(403);
      expect(codes).toEqual(['BODY_UNREADABLE']);
      expect(server().admin.requests()).toHaveLength(0);
    });
  },
);

describe('a multipart body over the limit is refused without reading it all', () => {
  const head = (boundary: string) =>
    new TextEncoder().encode(
      `--${boundary}\r\ncontent-disposition: form-data; name="attachment"; filename="a.bin"\r\n\r\n`,
    );
  const chunk = new Uint8Array(16 * 1024).fill(120);

  it('Web Request: a body that never ends gets 413 after at most the limit and a chunk', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head('b'));
      },
      pull(controller) {
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request('http://127.0.0.1/contact', {
      method: 'POST',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      duplex: 'half',
    } as RequestInit);
    const check = await verifyRequest(client(), request, { maxBodyBytes: 64 * 1024 });
    expect(check.status).toBe(413);
    expect(check.outcome.reasons[0]?.code).toBe('BODY_TOO_LARGE');
    // A tee'd clone may read ahead a few chunks, never the whole (endless) body.
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it('node:http: an upload that never ends is answered 413 while it is still being sent', async () => {
    const app = createServer((req, res) => {
      void verifyRequest(client(), req, { maxBodyBytes: 64 * 1024 }).then((check) => {
        res.writeHead(check.status, { connection: 'close' });
        res.end(JSON.stringify(check.body));
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const { port } = app.address() as AddressInfo;
    const { request } = await import('node:http');
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const upload = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/contact',
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
      });
      upload.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        upload.destroy();
      });
      upload.on('error', reject);
      upload.write(head('b'));
      const more = () => {
        // Never ends: stops only when the answer arrived (or past 64 MiB, which fails the test).
        if (upload.destroyed || sent > 64 * 1024 * 1024) return;
        sent += chunk.length;
        if (upload.write(chunk)) setImmediate(more);
        else upload.once('drain', more);
      };
      more();
    });
    app.closeAllConnections();
    await new Promise((resolve) => app.close(resolve));
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(server().admin.requests()).toHaveLength(0);
  });
});

describe.each(['express', 'express 4'])(
  '%s: an error onDecision throws goes to the error handler',
  (kind) => {
    it('answers 500 instead of leaving the request hanging', async () => {
      const h = await ADAPTERS[kind]!(client(), {
        onDecision: () => {
          throw new Error('metrics down');
        },
      });
      const { token } = server().admin.createVerification({ score: 0.1 });
      const answer = await h.post(form({ 'svc-verification-token': token }));
      await h.close();
      expect(answer.status).toBe(500);
    });
  },
);
