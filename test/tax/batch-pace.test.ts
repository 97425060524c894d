import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/core/errors/error-classes.js';
import { MIN_RATE, Pace } from '../../src/tax/batch/pace.js';

/** A clock that only moves when a sleep is asked for (no real time passes). */
function fakeTime() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    slept,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw new AbortError();
      slept.push(ms);
      now += ms;
    },
  };
}

const pace = (time: ReturnType<typeof fakeTime>, concurrency = 4) =>
  new Pace({ concurrency, now: time.now, sleep: time.sleep, random: () => 0.5 });

describe('unthrottled, the pace is the concurrency ceiling and no wait', () => {
  it('four requests start at once; a fifth waits for a slot', async () => {
    const time = fakeTime();
    const p = pace(time);
    const tickets = await Promise.all([1, 2, 3, 4].map(() => p.acquire()));
    let fifth = false;
    const waiting = p.acquire().then((t) => {
      fifth = true;
      return t;
    });
    await Promise.resolve();
    expect(fifth).toBe(false);
    p.done(tickets[0] as (typeof tickets)[0], { throttled: false });
    await waiting;
    expect(fifth).toBe(true);
    expect(time.slept).toEqual([]);
    expect(p.rate).toBeUndefined();
  });
});

describe('a 429 halves the requests in flight, sets a rate and holds every start', () => {
  it('Retry-After is honoured: the next start waits that long', async () => {
    const time = fakeTime();
    const p = pace(time);
    const t = await p.acquire();
    p.done(t, { throttled: true, retryAfterMs: 2000 });
    expect(p.concurrency).toBe(2);
    expect(p.rate).toBeGreaterThanOrEqual(MIN_RATE);
    const started = time.now();
    const next = await p.acquire();
    expect(next.startedAt - started).toBeGreaterThanOrEqual(2000);
  });

  it('without Retry-After the hold is a backoff that grows with throttles in a row', async () => {
    const time = fakeTime();
    const p = pace(time, 1);
    const holds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t = await p.acquire();
      const at = time.now();
      p.done(t, { throttled: true, retryAfterMs: undefined });
      const next = await p.acquire();
      holds.push(next.startedAt - at);
      p.done(next, { throttled: false });
      // The success resets the run of throttles: throttle twice in a row below instead.
      if (i < 3) {
        const again = await p.acquire();
        p.done(again, { throttled: true, retryAfterMs: undefined });
      }
    }
    // random 0.5: half of 0.5 s, 1 s, 2 s...: each hold at least the first, the later ones longer.
    expect(holds[0]).toBeGreaterThanOrEqual(250);
    expect(Math.max(...holds.slice(1))).toBeGreaterThan(holds[0] as number);
  });

  it('throttles of requests started before the last cut cut nothing more (one cut per burst)', async () => {
    const time = fakeTime();
    const p = pace(time, 8);
    const burst = await Promise.all(Array.from({ length: 8 }, () => p.acquire()));
    for (const t of burst) p.done(t, { throttled: true, retryAfterMs: 1000 });
    expect(p.concurrency).toBe(4);
  });

  it('the rate climbs back while requests pass, and the slots with it', async () => {
    const time = fakeTime();
    const p = pace(time, 4);
    const first = await Promise.all([1, 2, 3, 4].map(() => p.acquire()));
    for (const t of first) p.done(t, { throttled: true, retryAfterMs: 500 });
    const cut = p.rate as number;
    expect(p.concurrency).toBe(2);
    for (let i = 0; i < 40; i++) p.done(await p.acquire(), { throttled: false });
    expect(p.rate as number).toBeGreaterThan(cut);
    expect(p.concurrency).toBe(4);
  });

  it('a rate spaces the starts: 1000 / rate ms apart', async () => {
    const time = fakeTime();
    const p = pace(time, 4);
    const t = await p.acquire();
    p.done(t, { throttled: true, retryAfterMs: 0 });
    const rate = p.rate as number;
    const a = await p.acquire();
    const b = await p.acquire();
    expect(b.startedAt - a.startedAt).toBeGreaterThanOrEqual(Math.floor(1000 / rate) - 1);
  });
});

describe('an abort ends the wait', () => {
  it('a waiter for a slot rejects with AbortError', async () => {
    const time = fakeTime();
    const p = pace(time, 1);
    await p.acquire();
    const controller = new AbortController();
    const waiting = p.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });
});
