import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttemptTimer, callTimeoutError, timeoutOver } from '../../src/core/attempt-timer.js';
import { TimeoutError } from '../../src/core/errors/error-classes.js';

// The attempt's clock against fake timers (an injected clock): no real waiting.

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function counting(): { abort(): void; calls: number } {
  return {
    calls: 0,
    abort() {
      this.calls++;
    },
  };
}

describe('the silence timer bounds the wait for the answer: nothing heard for idleMs ends the attempt as "answer"', () => {
  it('pending at 999 ms, aborted once at 1000 ms', async () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, Number.POSITIVE_INFINITY);
    vi.advanceTimersByTime(999);
    expect(timer.expired).toBeUndefined();
    expect(abort.calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(timer.expired).toBe('answer');
    expect(abort.calls).toBe(1);
    timer.end('deadline');
    expect(timer.expired).toBe('answer');
    expect(abort.calls).toBe(1);
  });
});

describe('each report re-arms the silence timer: a steady body never expires; a silence after it does, as "body"', () => {
  it('news every 900 ms for 10 s keeps it alive; 1000 ms after the last it ends', () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, Number.POSITIVE_INFINITY);
    for (let at = 900; at <= 10_000; at += 900) {
      vi.advanceTimersByTime(900);
      timer.heard();
    }
    expect(timer.expired).toBeUndefined();
    vi.advanceTimersByTime(999);
    expect(timer.expired).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(timer.expired).toBe('body');
    expect(abort.calls).toBe(1);
  });

  it('re-arms the one timer it made (refresh), not a new one per report', () => {
    vi.useFakeTimers();
    const made = vi.spyOn(globalThis, 'setTimeout');
    const timer = new AttemptTimer(counting(), 1000, Number.POSITIVE_INFINITY);
    for (let i = 0; i < 100; i++) timer.heard();
    expect(made).toHaveBeenCalledTimes(1);
    timer.stop();
  });

  it('where timers are numbers (no refresh), clears and sets it again, with the same effect', () => {
    const live = new Map<number, { fn: (...args: unknown[]) => void; at: number; args: unknown[] }>();
    let now = 0;
    let next = 1;
    vi.stubGlobal('setTimeout', (fn: (...args: unknown[]) => void, ms: number, ...args: unknown[]) => {
      live.set(next, { fn, at: now + ms, args });
      return next++;
    });
    vi.stubGlobal('clearTimeout', (id: number) => live.delete(id));
    const advance = (ms: number) => {
      now += ms;
      for (const [id, entry] of [...live]) {
        if (entry.at <= now) {
          live.delete(id);
          entry.fn(...entry.args);
        }
      }
    };
    const timer = new AttemptTimer(counting(), 1000, Number.POSITIVE_INFINITY);
    advance(800);
    timer.heard();
    advance(800);
    expect(timer.expired).toBeUndefined();
    expect(live.size).toBe(1);
    advance(200);
    expect(timer.expired).toBe('body');
    expect(live.size).toBe(0);
  });
});

describe('the deadline bounds the whole attempt: reports do not move it', () => {
  it('news every 500 ms; the 2500 ms left end the attempt as "deadline"', () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, 2500);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(500);
      timer.heard();
    }
    vi.advanceTimersByTime(499);
    expect(timer.expired).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(timer.expired).toBe('deadline');
    expect(abort.calls).toBe(1);
  });
});

describe('a transport that watches the body itself takes the silence over; its own limit counts as a body timeout', () => {
  it('handOver stops the silence timer, not the deadline', () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, 5000);
    vi.advanceTimersByTime(500);
    timer.handOver();
    vi.advanceTimersByTime(4000);
    expect(timer.expired).toBeUndefined();
    vi.advanceTimersByTime(500);
    expect(timer.expired).toBe('deadline');
  });

  it('silent marks the attempt timed out in the body without aborting it again (the transport failed it)', () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, 5000);
    timer.handOver();
    timer.silent();
    expect(timer.expired).toBe('body');
    expect(abort.calls).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(timer.expired).toBe('body');
    expect(abort.calls).toBe(0);
  });

  it('stop: neither fires any more', () => {
    vi.useFakeTimers();
    const abort = counting();
    const timer = new AttemptTimer(abort, 1000, 2000);
    timer.stop();
    vi.advanceTimersByTime(10_000);
    expect(timer.expired).toBeUndefined();
    expect(abort.calls).toBe(0);
  });
});

describe('a timeout error says what ran out, for how long, and the attempts made', () => {
  it.each([
    ['answer', 3000, 3, 'No answer for 3000 ms: GET /platform/v1/events (3 attempts)'],
    ['body', 3000, 1, 'No data for 3000 ms while reading the response: GET /platform/v1/events (1 attempt)'],
    ['deadline', 10_000, 2, 'Deadline of 10000 ms passed: GET /platform/v1/events (2 attempts)'],
  ] as const)('%s', (phase, ms, attempts, message) => {
    const error = callTimeoutError(phase, ms, 'GET /platform/v1/events', attempts);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ message, phase, attempts, timeoutMs: ms, code: 'timeout' });
    expect('cause' in error).toBe(false);
  });

  it('a caller that retried one-attempt calls itself counts them all (bulk reads)', () => {
    const last = callTimeoutError('answer', 500, 'GET /platform/v1/events', 1);
    const all = timeoutOver(last, 3);
    expect(all).toMatchObject({
      message: 'No answer for 500 ms: GET /platform/v1/events (3 attempts)',
      attempts: 3,
    });
    expect(all).toMatchObject({ phase: 'answer', timeoutMs: 500 });
    expect(timeoutOver(last, 1)).toBe(last);
    const plain = new TimeoutError('timed out', 10);
    expect(timeoutOver(plain, 4)).toBe(plain);
  });

  it("a deadline that ran out is the caller's whole deadline, not what was left of it for the last call", () => {
    const cause = new Error('aborted');
    const last = callTimeoutError('deadline', 996, 'GET /platform/v1/events', 1, cause);
    expect(timeoutOver(last, 1, 1000)).toMatchObject({
      message: 'Deadline of 1000 ms passed: GET /platform/v1/events (1 attempt)',
      timeoutMs: 1000,
      attempts: 1,
      phase: 'deadline',
      cause,
    });
    const silence = callTimeoutError('answer', 500, 'GET /platform/v1/events', 2);
    expect(timeoutOver(silence, 2, 1000)).toBe(silence);
  });
});
