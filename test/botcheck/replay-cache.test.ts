import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AnswerCache,
  type Retention,
  VERIFY_CACHE_MAX_ENTRIES,
  VERIFY_CACHE_MAX_UNANSWERED,
} from '../../src/botcheck/answer-cache.js';
import { VerificationNotFoundError } from '../../src/botcheck/errors.js';
import { encodeVerificationToken } from '../../src/botcheck/token.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);

/** Runs `task` for each item, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
}

describe('replays: an answered id cannot be pushed out by unanswered ids', () => {
  it('10,000 random well-formed ids (each a 404) do not evict an answered id', async () => {
    // Two fetches allowed: were the id forgotten, the service would answer it again.
    const { token } = server().admin.createVerification({ maxFetches: 2 });
    const c = client();
    expect((await c.botCheck.verify(token)).decision).toBe('accept');
    const flood = Array.from({ length: 10_000 }, () => randomUUID());
    await inBatches(flood, 100, async (id) => {
      const outcome = await c.botCheck.verify(id);
      if (!(outcome.error instanceof VerificationNotFoundError)) throw new Error(`${id} was not a 404`);
    });
    const before = server().admin.stats().verificationFetches;
    const replay = await c.botCheck.verify(token);
    expect(replay).toMatchObject({ decision: 'reject', replayed: true, reasons: [{ code: 'REPLAYED' }] });
    expect(server().admin.stats().verificationFetches).toBe(before);
  }, 60_000);

  it('a 1,000,000-id flood keeps the cache within its bounds, the answered id included', async () => {
    const cache = new AnswerCache<string>(() => 0);
    // Well-formed ids from a counter: a million random UUIDs would cost more than the flood itself.
    const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const answered = randomUUID();
    await cache.claim(
      answered,
      async () => 'result',
      () => 'answered',
    ).value;
    const notFound = new Error('404');
    const kinds: Retention[] = ['unanswered', 'retry'];
    for (let batch = 0; batch < 100; batch++) {
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < 10_000; i++) {
        const claim = cache.claim(
          id(batch * 10_000 + i),
          () => Promise.reject(notFound),
          () => kinds[i % 2] as Retention,
        );
        pending.push(claim.value);
      }
      await Promise.all(pending);
      expect(cache.size).toBeLessThanOrEqual(VERIFY_CACHE_MAX_UNANSWERED + 1);
    }
    expect(cache.size).toBe(VERIFY_CACHE_MAX_UNANSWERED + 1);
    expect(
      cache.claim(
        answered,
        async () => 'again',
        () => 'answered',
      ).first,
    ).toBe(false);
  }, 60_000);

  it('answered ids give way only to other answers, oldest first, within their own bound', async () => {
    const cache = new AnswerCache<string>(() => 0, undefined, { maxAnswered: 2, maxUnanswered: 3 });
    const load = async () => 'x';
    for (const id of ['a', 'b']) await cache.claim(id, load, () => 'answered').value;
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) await cache.claim(id, load, () => 'unanswered').value;
    expect(cache.size).toBe(5);
    expect(cache.claim('a', load, () => 'answered').first).toBe(false);
    await cache.claim('c', load, () => 'answered').value;
    expect(cache.claim('b', load, () => 'answered').first).toBe(false);
    expect(cache.claim('a', load, () => 'answered').first).toBe(true);
    expect(VERIFY_CACHE_MAX_ENTRIES).toBe(10_000);
  });

  it('an id whose fetch failed (retry) is asked again, marked seen; an unanswered one is not', async () => {
    const cache = new AnswerCache<string>(() => 0);
    const fail = () => Promise.reject(new Error('503'));
    await cache.claim('r', fail, () => 'retry').value;
    await cache.claim('u', fail, () => 'unanswered').value;
    expect(cache.claim('r', fail, () => 'retry')).toMatchObject({ first: true, seen: true });
    expect(cache.claim('u', fail, () => 'retry')).toMatchObject({ first: false, seen: true });
    expect(cache.claim('new', fail, () => 'retry')).toMatchObject({ first: true, seen: false });
  });
});

describe('replays: ids compare case-insensitively (the canonical id is lower-case)', () => {
  it('an upper-case variant of an answered id is REPLAYED without a request', async () => {
    const { verificationId } = server().admin.createVerification({ maxFetches: 3 });
    const c = client();
    expect((await c.botCheck.verify(verificationId)).decision).toBe('accept');
    const upper = verificationId.toUpperCase();
    expect(upper).not.toBe(verificationId);
    const asId = await c.botCheck.verify(upper);
    const asToken = await c.botCheck.verify(encodeVerificationToken({ verificationId: upper }));
    for (const outcome of [asId, asToken]) {
      expect(outcome).toMatchObject({ decision: 'reject', replayed: true, reasons: [{ code: 'REPLAYED' }] });
    }
    expect(server().admin.requests()).toHaveLength(1);
  });

  it('the legacy API too', async () => {
    const { verificationId } = server().admin.createVerification({ maxFetches: 3 });
    const c = client();
    expect((await c.legacyBotCheck.verify(verificationId.toUpperCase())).decision).toBe('accept');
    expect((await c.legacyBotCheck.verify(verificationId)).reasons[0]?.code).toBe('REPLAYED');
  });
});
