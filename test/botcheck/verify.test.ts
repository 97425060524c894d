import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/botcheck/answer-cache.js';
import { FetchLimitReachedError, VerificationNotFoundError } from '../../src/botcheck/errors.js';
import { extractToken } from '../../src/botcheck/extract-token.js';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { encodeVerificationToken } from '../../src/botcheck/token.js';
import { verify } from '../../src/botcheck/verify.js';
import { ConnectionError, TokenDecodeError } from '../../src/core/errors/error-classes.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

describe('verify: decode, fetch, evaluate in one call', () => {
  it('accepts a passing verification and returns the result', async () => {
    const { token, verificationId } = server().admin.createVerification({ score: 0.1 });
    const outcome = await client().botCheck.verify(token);
    expect(outcome).toMatchObject({ decision: 'accept', verificationId, shared: false });
    expect(outcome.result?.verificationPassed).toBe(true);
  });

  it('applies the policy', async () => {
    const { token } = server().admin.createVerification({ score: 0.45 });
    const outcome = await client().botCheck.verify(token, { policy: { kind: 'multiStage' } });
    expect(outcome.decision).toBe('challenge');
  });

  it('works on the legacy API, also through the standalone verify(client, ...)', async () => {
    const a = server().admin.createVerification({ passed: false });
    const b = server().admin.createVerification();
    const c = client();
    expect((await c.legacyBotCheck.verify(a.token)).decision).toBe('reject');
    expect(await verify(c, b.token, { api: 'legacy' })).toMatchObject({ decision: 'accept' });
  });
});

describe('verify: a verification id is answered once per client; a replay is rejected', () => {
  it('a token verified twice gives accept, then reject REPLAYED without a second fetch', async () => {
    const { token, verificationId } = server().admin.createVerification();
    const c = client();
    expect(await c.botCheck.verify(token)).toMatchObject({ decision: 'accept', replayed: false });
    const again = await c.botCheck.verify(verificationId);
    expect(again).toMatchObject({ decision: 'reject', replayed: true, shared: false, verificationId });
    expect(again.reasons.map((r) => r.code)).toEqual(['REPLAYED']);
    expect(server().admin.stats().verificationFetches).toBe(1);
  });

  it('also when both calls start together: one accept, one REPLAYED, one fetch', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    const outcomes = await Promise.all([c.botCheck.verify(token), c.botCheck.verify(token)]);
    expect(outcomes.map((o) => o.decision)).toEqual(['accept', 'reject']);
    expect(outcomes[1]?.reasons[0]?.code).toBe('REPLAYED');
    expect(server().admin.stats().verificationFetches).toBe(1);
  });

  it('the legacy API rejects a replay the same way', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    expect((await c.legacyBotCheck.verify(token)).decision).toBe('accept');
    expect((await c.legacyBotCheck.verify(token)).reasons[0]?.code).toBe('REPLAYED');
  });

  it("with onReplay: 'shareFirstAnswer' both accept, the second marked shared and replayed", async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    const options = { onReplay: 'shareFirstAnswer' } as const;
    const [first, second] = await Promise.all([
      c.botCheck.verify(token, options),
      c.botCheck.verify(token, options),
    ]);
    expect(first).toMatchObject({ decision: 'accept', replayed: false, shared: false });
    expect(second).toMatchObject({ decision: 'accept', replayed: true, shared: true });
    expect(second.result).toEqual(first.result);
    const later = await c.botCheck.verify(token, options);
    expect(later).toMatchObject({ decision: 'accept', shared: true });
    expect(later.result).toEqual(first.result);
    expect(server().admin.stats().verificationFetches).toBe(1);
  });

  it('a settled legacy answer is shared equal to the first, parsed timestamps included', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    const first = await c.legacyBotCheck.verify(token);
    const later = await c.legacyBotCheck.verify(token, { onReplay: 'shareFirstAnswer' });
    expect(later).toMatchObject({ decision: 'accept', replayed: true, shared: true });
    expect(later.result).toEqual(first.result);
    expect(later.result?.parsedTimestamps.releaseTimestamp).toBeInstanceOf(Date);
  });

  it('a shared answer is re-evaluated with its own policy', async () => {
    const { token } = server().admin.createVerification({ score: 0.45 });
    const c = client();
    expect((await c.botCheck.verify(token)).decision).toBe('accept');
    const shared = await c.botCheck.verify(token, {
      policy: { kind: 'multiStage' },
      onReplay: 'shareFirstAnswer',
    });
    expect(shared.decision).toBe('challenge');
  });

  it('two SvcClients (two processes) give accept, then reject: the service refuses the second fetch', async () => {
    const { token } = server().admin.createVerification();
    const first = await client().botCheck.verify(token);
    const second = await client().botCheck.verify(token);
    expect(first.decision).toBe('accept');
    expect(second).toMatchObject({ decision: 'reject', replayed: false });
    expect(second.reasons[0]?.code).toBe('REPLAYED');
    expect(second.error).toBeInstanceOf(FetchLimitReachedError);
    expect(server().admin.stats().verificationFetches).toBe(2);
  });

  it('transient failures are forgotten: after 423 a later call asks again', async () => {
    const { token, verificationId } = server().admin.createVerification({ finished: false });
    const c = client();
    expect((await c.botCheck.verify(token)).decision).toBe('reject');
    server().admin.finishVerification(verificationId);
    expect((await c.botCheck.verify(token)).decision).toBe('accept');
    expect(server().admin.stats().verificationFetches).toBe(2);
  });

  it('clearVerifyCache forgets answered ids: the replay then reaches the service (429)', async () => {
    const { token } = server().admin.createVerification();
    const c = client();
    await c.botCheck.verify(token);
    c.botCheck.clearVerifyCache();
    const again = await c.botCheck.verify(token);
    expect(again.error).toBeInstanceOf(FetchLimitReachedError);
    expect(again.reasons[0]?.code).toBe('REPLAYED');
  });
});

describe('answer cache: bounded, entries live as long as the result is valid', () => {
  it('keeps a result until its validity ends, errors for the default time, and drops the oldest past the bound', async () => {
    let now = 0;
    const cache = new AnswerCache<number>(
      () => now,
      (n) => n * 1000,
      { maxAnswered: 2 },
    );
    let loads = 0;
    const load = async () => ++loads;
    const keep = () => 'answered' as const;
    await cache.claim('a', load, keep).value; // valid until 1000
    expect(cache.claim('a', load, keep).first).toBe(false);
    now = 1000;
    expect(cache.claim('a', load, keep).first).toBe(true); // loads 2: valid until 2000
    await cache.claim('b', load, keep).value;
    await cache.claim('c', load, keep).value;
    expect(cache.size).toBe(2);
    expect(cache.claim('a', load, keep).first).toBe(true);
  });

  it('a current result is remembered until its resultExpiresAt, then its replay reaches the service', async () => {
    // Verifications that finished two minutes ago: one valid for 10 minutes, one for 1 minute.
    server().admin.setNow(Date.now() - 120_000);
    const long = server().admin.createVerification({ validityMs: 600_000 });
    const short = server().admin.createVerification({ validityMs: 60_000 });
    const c = client();
    server().admin.setNow(Date.now() - 110_000);
    await c.botCheck.verify(long.token);
    await c.botCheck.verify(short.token);
    expect(server().admin.stats().verificationFetches).toBe(2);
    expect((await c.botCheck.verify(long.token)).error).toBeUndefined();
    expect(server().admin.stats().verificationFetches).toBe(2);
    const replay = await c.botCheck.verify(short.token);
    expect(replay).toMatchObject({ decision: 'reject', reasons: [{ code: 'REPLAYED' }] });
    expect(replay.error).toBeInstanceOf(FetchLimitReachedError);
    expect(server().admin.stats().verificationFetches).toBe(3);
  });
});

describe('verify: fail closed by default, never throws for service errors', () => {
  it.each([
    ['404', IDS.notFound, VerificationNotFoundError],
    ['429', IDS.fetchLimit, FetchLimitReachedError],
  ] as const)('%s rejects, even with failOpen', async (status, id, ErrorClass) => {
    const outcome = await client(TEST_KEY).botCheck.verify(id, { failOpen: true });
    expect(outcome.decision).toBe('reject');
    expect(outcome.reasons[0]?.code).toBe(status === '429' ? 'REPLAYED' : 'SERVICE_ERROR');
    expect(outcome.error).toBeInstanceOf(ErrorClass);
  });

  it('403 rejects, even with failOpen', async () => {
    const { token } = server().admin.createVerification();
    const outcome = await client('ak_invalid_key').botCheck.verify(token, { failOpen: true });
    expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'SERVICE_ERROR' }] });
  });

  it.each(['not a token', '', undefined, null, 'A'.repeat(1024 * 1024)])(
    'a malformed or missing token %# rejects without a request, even with failOpen',
    async (token) => {
      const outcome = await client().botCheck.verify(token, { failOpen: true });
      expect(outcome).toMatchObject({ decision: 'reject', reasons: [{ code: 'TOKEN_INVALID' }] });
      expect(outcome.error).toBeInstanceOf(TokenDecodeError);
      expect(server().admin.requests()).toHaveLength(0);
    },
  );

  it('5xx rejects by default and accepts only with failOpen', async () => {
    const c = client();
    server().admin.setFaults({ rate: 1, kinds: ['status503'], seed: 1 });
    const a = server().admin.createVerification();
    const b = server().admin.createVerification();
    expect(await c.botCheck.verify(a.token)).toMatchObject({
      decision: 'reject',
      reasons: [{ code: 'SERVICE_UNAVAILABLE' }],
    });
    const open = await c.botCheck.verify(b.token, { failOpen: true });
    expect(open.decision).toBe('accept');
    expect(open.reasons.map((r) => r.code)).toEqual(['SERVICE_UNAVAILABLE', 'FAIL_OPEN']);
  });

  it('an unreachable service rejects by default and accepts only with failOpen', async () => {
    const gone = await createReferenceServer();
    const url = gone.url;
    await gone.close();
    const c = client(DEMO.projectKey, { baseUrl: url });
    const id = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';
    const closed = await c.botCheck.verify(id);
    expect(closed.decision).toBe('reject');
    expect(closed.error).toBeInstanceOf(ConnectionError);
    // Connection refused means nothing was sent: retried (backoff captured, not slept).
    expect(c.delays).toHaveLength(2);
    const other = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e50';
    expect((await c.botCheck.verify(other, { failOpen: true })).decision).toBe('accept');
  });
});

describe("the token's apiEndpoint is never used: requests go to the configured base URL only", () => {
  let other: ReferenceServer;
  beforeAll(async () => {
    other = await createReferenceServer();
  });
  afterAll(async () => {
    await other.close();
  });

  it('getResult, getAssessment and verify ignore an apiEndpoint naming another server', async () => {
    const a = server().admin.createVerification();
    const b = server().admin.createVerification();
    const c = server().admin.createVerification();
    const tokenFor = (verificationId: string) =>
      encodeVerificationToken({ verificationId, apiEndpoint: `${other.url}/`, encryptedAccessToken: 'x' });
    const cl = client();
    await cl.botCheck.getResult(tokenFor(a.verificationId));
    await cl.legacyBotCheck.getAssessment(tokenFor(b.verificationId));
    expect((await cl.botCheck.verify(tokenFor(c.verificationId))).decision).toBe('accept');
    expect(other.admin.requests()).toEqual([]);
    expect(
      server()
        .admin.requests()
        .map((r) => r.status),
    ).toEqual([200, 200, 200]);
  });
});

describe('extractToken: the svc-verification-token field of a form or JSON body', () => {
  const T = 'eyJ2ZXJpZmljYXRpb25JZCI6IngifQ==';
  it.each([
    ['URLSearchParams', new URLSearchParams({ name: 'a', 'svc-verification-token': T })],
    ['urlencoded text', `name=a&svc-verification-token=${encodeURIComponent(T)}`],
    ['JSON text', JSON.stringify({ 'svc-verification-token': T })],
    ['parsed object', { 'svc-verification-token': T, name: 'a' }],
    ['buffer', Buffer.from(`svc-verification-token=${encodeURIComponent(T)}`)],
    ['same value twice', { 'svc-verification-token': [T, T] }],
  ])('reads it from %s', (_, body) => {
    expect(extractToken(body)).toBe(T);
  });

  it.each([
    ['no body', undefined],
    ['no field', { name: 'a' }],
    ['not a string', { 'svc-verification-token': 42 }],
    ['two different values', `svc-verification-token=a&svc-verification-token=b`],
    ['broken JSON', '{"svc-verification-token":'],
    ['an array', [T]],
  ])('gives undefined for %s', (_, body) => {
    expect(extractToken(body)).toBeUndefined();
  });
});
