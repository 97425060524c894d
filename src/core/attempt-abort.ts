import type { TransportRequest } from './transport/types.js';

/** A function called once when an attempt is aborted. */
type AbortListener = () => void;

/**
 * The key under which the request pipeline hands a transport the {@link AttemptAbort} of the
 * attempt, next to `signal`. Only the library's own undici transport reads it; any other
 * transport sees the plain `TransportRequest` it always did.
 */
export const ATTEMPT_ABORT: unique symbol = Symbol('svc-sdk.attemptAbort');

/**
 * The key of a transport's declaration that, for the requests it answers true for, it takes the
 * abort from `request[ATTEMPT_ABORT]` and never reads `request.signal`: for those the pipeline
 * makes no `AbortController` and `signal` is a placeholder that never fires. Only the library's
 * undici transport (and the default transport, for the requests it gives undici) declare it; any
 * other transport gets a real `AbortSignal` per attempt, as before.
 */
export const TAKES_ATTEMPT_ABORT: unique symbol = Symbol('svc-sdk.takesAttemptAbort');

/** A transport that may declare {@link TAKES_ATTEMPT_ABORT}. */
export interface AttemptAbortAware {
  [TAKES_ATTEMPT_ABORT]?: (request: TransportRequest) => boolean;
}

let placeholder: AbortSignal | undefined;

/**
 * The `signal` of a request whose transport declared {@link TAKES_ATTEMPT_ABORT}: one signal,
 * made once and never fired, that such a transport never reads (so nothing listens on it).
 */
export function unreadSignal(): AbortSignal {
  placeholder ??= new AbortController().signal;
  return placeholder;
}

/**
 * The abort of one attempt of a call: fired by the per-attempt timeout (bounded by the deadline)
 * or by the caller's signal, at most once.
 *
 * Why not an `AbortController` per attempt: on Node one costs about 6.5 µs (the signal, an
 * EventTarget listener added and removed, undici's own listener), most of the client's CPU on a
 * bot-check call beyond what raw undici spends. undici accepts an EventEmitter-like `signal`
 * (`on`/`once`/`removeListener`, `aborted`, `reason`), which this is: a transport that declares
 * {@link TAKES_ATTEMPT_ABORT} listens here. For any other transport the pipeline reads
 * {@link AttemptAbort.signal}, a real `AbortSignal` made on that first read and fired together
 * with this object (already fired if the attempt was aborted before): the same per-attempt
 * semantics, paid for only there.
 */
export class AttemptAbort {
  /** True once the attempt was aborted. */
  aborted = false;
  /** Why: an `AbortError` DOMException once aborted (as `AbortController.abort()` gives), else undefined. */
  reason: unknown = undefined;
  /** True when the per-attempt timeout fired (rather than the caller's signal). */
  timedOut = false;
  #controller: AbortController | undefined;
  // One listener is the usual case (undici adds one per request): no array for it.
  #listener: AbortListener | undefined;
  #more: AbortListener[] | undefined;

  /** A real `AbortSignal` for this attempt, made on first read; fired whenever this attempt is. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the attempt: the signal (if made) fires, then every listener, once. Later calls do nothing. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.reason);
    const first = this.#listener;
    const more = this.#more;
    this.#listener = undefined;
    this.#more = undefined;
    first?.();
    if (more) for (const listener of more) listener();
  }

  /** Ends the attempt on a timeout: {@link AttemptAbort.timedOut} is set, then it aborts. */
  timeOut(): void {
    if (this.aborted) return;
    this.timedOut = true;
    this.abort();
  }

  /** EventEmitter-style: calls `listener` when the attempt aborts (`event` must be `abort`). */
  on(event: string, listener: AbortListener): this {
    if (event !== 'abort' || this.aborted) return this;
    if (this.#listener === undefined) this.#listener = listener;
    else if (this.#more === undefined) this.#more = [listener];
    else this.#more.push(listener);
    return this;
  }

  /** Same as {@link AttemptAbort.on}: an attempt aborts at most once. */
  once(event: string, listener: AbortListener): this {
    return this.on(event, listener);
  }

  /** EventEmitter-style: removes a listener added with `on` or `once`. */
  removeListener(event: string, listener: AbortListener): this {
    if (event !== 'abort') return this;
    if (this.#listener === listener) this.#listener = undefined;
    else if (this.#more) {
      const at = this.#more.indexOf(listener);
      if (at >= 0) this.#more.splice(at, 1);
    }
    return this;
  }

  /** Same as {@link AttemptAbort.removeListener}. */
  off(event: string, listener: AbortListener): this {
    return this.removeListener(event, listener);
  }
}

/** Fires the per-attempt timeout of `attempt` (a `setTimeout` callback that needs no closure). */
export function timeOutAttempt(attempt: AttemptAbort): void {
  attempt.timeOut();
}
