import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FetchLimitReachedError,
  VerificationNotFinishedError,
  VerificationNotFoundError,
  VerificationResultExpiredError,
} from '../../src/botcheck/errors.js';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import {
  ConnectionError,
  MalformedResponseError,
  PermissionDeniedError,
  TimeoutError,
  TransportError,
} from '../../src/core/errors/error-classes.js';
import type { FetchLike } from '../../src/core/transport/types.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

const codes = (outcome: { reasons: { code: string }[] }) => outcome.reasons.map((r) => r.code);

/** A fetch over the real one whose answer body is replaced: a malformed answer from the service. */
const garbling: FetchLike = async (input, init) => {
  const res = await fetch(input, init);
  await res.arrayBuffer();
  return new Response('{"verificationPassed": "maybe"', { status: res.status, headers: res.headers });
};

/** Throws what a runtime's fetch throws for a local fault, before anything is sent. */
const throwing =
  (error: unknown): FetchLike =>
  async () => {
    throw error;
  };

let downUrl = '';
let hanging: Server;
let hangingUrl = '';
beforeAll(async () => {
  const gone = await createReferenceServer();
  downUrl = gone.url;
  await gone.close();
  // Accepts connections and never answers: the fetch times out.
  hanging = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

describe('fail-open accepts only a real outage: connection refused or reset, timeout, 5xx', () => {
  it('connection refused', async () => {
    const outcome = await client(DEMO.projectKey, { baseUrl: downUrl }).botCheck.verify(
      server().admin.createVerification().verificationId,
      { failOpen: true },
    );
    expect(outcome).toMatchObject({ decision: 'accept', replayed: false });
    expect(codes(outcome)).toEqual(['SERVICE_UNAVAILABLE', 'FAIL_OPEN']);
    expect(outcome.error).toBeInstanceOf(ConnectionError);
  });

  it('connection reset', async () => {
    server().admin.setFaults({ rate: 1, kinds: ['reset'], seed: 1 });
    const outcome = await client().botCheck.verify(server().admin.createVerification().token, {
      failOpen: true,
    });
    expect(outcome.decision).toBe('accept');
    expect(outcome.error).toBeInstanceOf(ConnectionError);
  });

  it('timeout', async () => {
    const c = client(DEMO.projectKey, { baseUrl: hangingUrl, timeoutMs: 50 });
    const outcome = await c.botCheck.verify(server().admin.createVerification().token, { failOpen: true });
    expect(outcome.decision).toBe('accept');
    expect(outcome.error).toBeInstanceOf(TimeoutError);
  });

  it.each(['status500', 'status503'] as const)('%s', async (kind) => {
    server().admin.setFaults({ rate: 1, kinds: [kind], seed: 1 });
    const outcome = await client().botCheck.verify(server().admin.createVerification().token, {
      failOpen: true,
    });
    expect(outcome.decision).toBe('accept');
    expect(codes(outcome)).toEqual(['SERVICE_UNAVAILABLE', 'FAIL_OPEN']);
  });
});

describe('fail-open never accepts another status, a malformed answer or a local error', () => {
  it.each([
    ['404', IDS.notFound, VerificationNotFoundError],
    ['410', IDS.expired, VerificationResultExpiredError],
    ['423', IDS.notFinished, VerificationNotFinishedError],
    ['429', IDS.fetchLimit, FetchLimitReachedError],
  ] as const)('%s rejects', async (_, id, ErrorClass) => {
    const outcome = await client(TEST_KEY).botCheck.verify(id, { failOpen: true });
    expect(outcome.decision).toBe('reject');
    expect(outcome.error).toBeInstanceOf(ErrorClass);
  });

  it('403 (a wrong key) rejects', async () => {
    const outcome = await client('ak_wrong_key').botCheck.verify(server().admin.createVerification().token, {
      failOpen: true,
    });
    expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'SERVICE_ERROR' }] });
    expect(outcome.error).toBeInstanceOf(PermissionDeniedError);
  });

  it('a nonexistent id (404) rejects on the legacy API too', async () => {
    const outcome = await client(TEST_KEY).legacyBotCheck.verify(IDS.notFound, { failOpen: true });
    expect(outcome.decision).toBe('reject');
    expect(outcome.error).toBeInstanceOf(VerificationNotFoundError);
  });

  it('a malformed answer rejects', async () => {
    const c = client(DEMO.projectKey, { fetch: garbling });
    const outcome = await c.botCheck.verify(server().admin.createVerification().token, { failOpen: true });
    expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'SERVICE_ERROR' }] });
    expect(outcome.error).toBeInstanceOf(MalformedResponseError);
  });

  it('a body over the response cap rejects', async () => {
    const c = client(DEMO.projectKey, { maxResponseBytes: { botCheck: 10 } });
    const outcome = await c.botCheck.verify(server().admin.createVerification().token, { failOpen: true });
    expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'SERVICE_ERROR' }] });
  });

  it.each([
    [
      'a runtime permission error (Deno without --allow-net)',
      Object.assign(new Error('Requires net access'), { name: 'NotCapable' }),
    ],
    [
      'a TypeError that is not a network failure (workerd: Illegal invocation)',
      new TypeError('Illegal invocation'),
    ],
    [
      'a TypeError for an invalid request (code ERR_INVALID_URL)',
      Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }),
    ],
  ])('%s rejects, and nothing is sent', async (_, thrown) => {
    const c = client(DEMO.projectKey, { fetch: throwing(thrown) });
    const outcome = await c.botCheck.verify(server().admin.createVerification().token, { failOpen: true });
    expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'SERVICE_ERROR' }] });
    expect(outcome.error).toBeInstanceOf(TransportError);
    expect((outcome.error as TransportError).cause).toBe(thrown);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('a transport that cannot load rejects', async () => {
    const c = client(DEMO.projectKey, {
      transport: {
        request: () => Promise.reject(new Error("Cannot find package 'undici'")),
      },
    });
    const outcome = await c.botCheck.verify(server().admin.createVerification().token, { failOpen: true });
    expect(outcome.decision).toBe('reject');
    expect(outcome.error).toBeInstanceOf(TransportError);
  });
});

describe('fail-open never applies to an id this client has seen: a repeat during an outage is REPLAYED', () => {
  it('an id accepted by failOpen stays answered: its repeat is REPLAYED without a request, also after the outage', async () => {
    const { token } = server().admin.createVerification({ maxFetches: 2 });
    const c = client();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    expect((await c.botCheck.verify(token, { failOpen: true })).decision).toBe('accept');
    const during = await c.botCheck.verify(token, { failOpen: true });
    expect(during).toMatchObject({ decision: 'reject', replayed: true });
    expect(codes(during)).toEqual(['REPLAYED']);
    server().admin.setFaults(undefined);
    const after = await c.botCheck.verify(token, { failOpen: true });
    expect(codes(after)).toEqual(['REPLAYED']);
    expect(server().admin.requests()).toHaveLength(1);
  });

  it('an id rejected during an outage is asked again: REPLAYED while the outage lasts, answered after', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    expect(codes(await c.botCheck.verify(token))).toEqual(['SERVICE_UNAVAILABLE']);
    const repeat = await c.botCheck.verify(token, { failOpen: true });
    expect(repeat).toMatchObject({ decision: 'reject', replayed: true });
    expect(codes(repeat)).toEqual(['REPLAYED', 'SERVICE_UNAVAILABLE']);
    server().admin.setFaults(undefined);
    expect((await c.botCheck.verify(token, { failOpen: true })).decision).toBe('accept');
  });

  it('an id seen before the outage (423) is not accepted by failOpen once the service is down', async () => {
    const { token } = server().admin.createVerification({ finished: false });
    const c = client();
    expect((await c.botCheck.verify(token, { failOpen: true })).error).toBeInstanceOf(
      VerificationNotFinishedError,
    );
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    const repeat = await c.botCheck.verify(token, { failOpen: true });
    expect(codes(repeat)).toEqual(['REPLAYED', 'SERVICE_UNAVAILABLE']);
  });

  it("two calls at once during an outage: one accept, one REPLAYED, also with onReplay: 'shareFirstAnswer'", async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    const options = { failOpen: true, onReplay: 'shareFirstAnswer' } as const;
    const [first, second] = await Promise.all([
      c.botCheck.verify(token, options),
      c.botCheck.verify(token, options),
    ]);
    expect(first.decision).toBe('accept');
    expect(second).toMatchObject({ decision: 'reject', replayed: true });
    expect(codes(second)[0]).toBe('REPLAYED');
    expect(server().admin.requests()).toHaveLength(1);
  });

  it('the legacy API behaves the same', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    expect((await c.legacyBotCheck.verify(token, { failOpen: true })).decision).toBe('accept');
    expect(codes(await c.legacyBotCheck.verify(token, { failOpen: true }))).toEqual(['REPLAYED']);
  });
});
