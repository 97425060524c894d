import { AbortError } from '../../core/errors/error-classes.js';

/** Waits `ms`, or rejects with `AbortError` when `signal` fires first. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal?.aborted) return fail(new AbortError('the ship was interrupted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      fail(new AbortError('the ship was interrupted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
