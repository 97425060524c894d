import { AbortError } from '../core/errors/error-classes.js';

/** Exit code of an interrupt that left nothing to resume (as a shell reports SIGINT), and of a second interrupt. */
export const INTERRUPTED_NOTHING_SAVED = 130;

/**
 * What a command knows of interrupts: the signal that fires on the first SIGINT/SIGTERM. A long
 * command saves its state and exits 75 (`EXIT.INTERRUPTED`); one with nothing to save
 * ends with {@link INTERRUPTED_NOTHING_SAVED} (130, see {@link interruptedExitCode}).
 */
export class Signals {
  /** Fires on the first SIGINT/SIGTERM; undefined when nothing can interrupt (some tests). */
  readonly signal: AbortSignal | undefined;

  constructor(signal: AbortSignal | undefined) {
    this.signal = signal;
  }

  /** `{ signal }` to spread into a library call's options, or nothing when there is none. */
  get abortable(): { signal?: AbortSignal } {
    return this.signal ? { signal: this.signal } : {};
  }

  /** Resolves on the interrupt; never, when nothing can interrupt. */
  untilInterrupted(): Promise<void> {
    const signal = this.signal;
    if (!signal) return new Promise<void>(() => {});
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

/** The exit code of a run that failed with `error`: 130 when the interrupt stopped it with nothing saved, else `code`. */
export function interruptedExitCode(error: unknown, signal: AbortSignal | undefined, code: number): number {
  return error instanceof AbortError && signal?.aborted ? INTERRUPTED_NOTHING_SAVED : code;
}

/**
 * Aborts the returned signal on the first SIGINT/SIGTERM of the process (Ctrl-C on a terminal,
 * `kill -INT`, `kill -TERM`): long commands save their state and exit 75. A second one exits at
 * once with 130, for a run that does not stop fast enough.
 */
export function abortOnSignals(): AbortSignal {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals > 1) process.exit(INTERRUPTED_NOTHING_SAVED);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}
