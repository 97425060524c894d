import { TimeoutError, type TimeoutPhase } from './errors/error-classes.js';
import type { AttemptAbort } from './transport/attempt-abort.js';
import type { SilenceWatch } from './transport/types.js';

type Handle = ReturnType<typeof setTimeout>;

// Module functions, handed the timer as the timeout's argument: no closure per attempt.
function onSilence(timer: AttemptTimer): void {
  timer.end(timer.heardAny ? 'body' : 'answer');
}

function onDeadline(timer: AttemptTimer): void {
  timer.end('deadline');
}

/**
 * The clock of one attempt: `idleMs` of silence allowed before the answer starts (connect and
 * response headers) and between chunks of the body, and optionally a bound on the whole attempt
 * (the time left of the call's deadline). When either runs out the attempt is aborted once and
 * {@link AttemptTimer.expired} says which. The transport reports what arrives through
 * {@link SilenceWatch} (it is the request's `watch`); each report re-arms the one silence timer
 * with `refresh()` (no new timer per chunk) where the runtime's timers have it, as Node's, Bun's
 * and fake timers do; elsewhere (timers that are numbers) it is cleared and set again.
 */
export class AttemptTimer implements SilenceWatch {
  readonly idleMs: number;
  /** What ran out, once the attempt was ended for it; undefined while none did. */
  expired: TimeoutPhase | undefined = undefined;
  /** Whether the transport reported anything (the headers at least). */
  heardAny = false;
  readonly #abort: AttemptAbort;
  #idle: Handle | undefined;
  #deadline: Handle | undefined;
  readonly #refreshable: boolean;

  /**
   * Starts the clock. `leftMs`: the most the whole attempt may take (the deadline's time left);
   * `Infinity` for no bound.
   */
  constructor(abort: AttemptAbort, idleMs: number, leftMs: number) {
    this.#abort = abort;
    this.idleMs = idleMs;
    const idle = setTimeout(onSilence, idleMs, this);
    this.#idle = idle;
    this.#refreshable = typeof (idle as { refresh?: unknown }).refresh === 'function';
    if (leftMs !== Number.POSITIVE_INFINITY) this.#deadline = setTimeout(onDeadline, leftMs, this);
  }

  /** The headers or a body chunk arrived: the silence counts from now. */
  heard(): void {
    this.heardAny = true;
    const idle = this.#idle;
    if (idle === undefined) return;
    if (this.#refreshable) (idle as unknown as { refresh(): void }).refresh();
    else {
      clearTimeout(idle);
      this.#idle = setTimeout(onSilence, this.idleMs, this);
    }
  }

  /** The transport watches the silence of the rest of the body itself; the deadline still holds. */
  handOver(): void {
    this.heardAny = true;
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
  }

  /** The transport's own silence limit ran out while it read the body (it failed the request). */
  silent(): void {
    if (this.expired !== undefined) return;
    this.expired = 'body';
    this.stop();
  }

  /** Ends the attempt for `phase`, once; later calls do nothing. */
  end(phase: TimeoutPhase): void {
    if (this.expired !== undefined) return;
    this.expired = phase;
    this.stop();
    this.#abort.abort();
  }

  /** Stops both timers (the attempt is over). */
  stop(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#idle = undefined;
    this.#deadline = undefined;
  }
}

/** `n attempts`, for a timeout line. */
function attemptsText(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/**
 * The error of a call that ran out of time: after `attempts` attempts, `phase` ran out (`limitMs`:
 * the silence allowed, or the deadline). Says what timed out: "No answer for 3000 ms: GET
 * /v1/audit-events (3 attempts)", "No data for 3000 ms while reading the response: ...",
 * "Deadline of 10000 ms passed: ...".
 */
export function callTimeoutError(
  phase: TimeoutPhase,
  limitMs: number,
  call: string,
  attempts: number,
  cause?: unknown,
): TimeoutError {
  const what =
    phase === 'answer'
      ? `No answer for ${limitMs} ms`
      : phase === 'body'
        ? `No data for ${limitMs} ms while reading the response`
        : `Deadline of ${limitMs} ms passed`;
  const message = `${what}: ${call} (${attemptsText(attempts)})`;
  return new TimeoutError(
    message,
    limitMs,
    cause === undefined ? { phase, attempts } : { cause, phase, attempts },
  );
}

/**
 * The same timeout seen by a caller that retried calls of one attempt each on its own (bulk
 * reads' patience): its message and `attempts` count every attempt made, not the last call's one,
 * and a deadline that ran out is the caller's whole `deadlineMs`, not the time that was left of it
 * when the last call started.
 */
export function timeoutOver(error: TimeoutError, attempts: number, deadlineMs?: number): TimeoutError {
  const { phase } = error;
  if (phase === undefined || error.attempts === undefined) return error;
  const all = Math.max(attempts, error.attempts);
  const limitMs = phase === 'deadline' && deadlineMs !== undefined ? deadlineMs : error.timeoutMs;
  if (all === error.attempts && limitMs === error.timeoutMs) return error;
  const call = error.message.slice(error.message.indexOf(': ') + 2).replace(/ \(\d+ attempts?\)$/, '');
  return callTimeoutError(phase, limitMs, call, all, error.cause);
}
