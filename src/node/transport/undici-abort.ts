import type { AttemptAbort } from '../../core/transport/attempt-abort.js';

/** A function called once when a request is aborted. */
type AbortListener = () => void;

/**
 * The abort of one undici request, given to undici as its `signal`: undici accepts an
 * EventEmitter-like object (`on`, `once`, `removeListener`, `aborted`, `reason`). An
 * `AbortController` per request costs about 6.5 µs on Node 20 (the signal, an EventTarget
 * listener added and removed by undici), the largest share of the client's CPU per bot-check
 * call beyond what raw undici spends; this costs an object.
 */
export class UndiciAbort implements AttemptAbort {
  /** True once aborted. */
  aborted = false;
  /** Why: an `AbortError` DOMException once aborted (as `AbortController.abort()` gives), else undefined. */
  reason: unknown = undefined;
  // undici adds one listener per request: no array for it.
  #listener: AbortListener | undefined;
  #more: AbortListener[] | undefined;

  /** Aborts: every listener is called, once. Later calls do nothing. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    const first = this.#listener;
    const more = this.#more;
    this.#listener = undefined;
    this.#more = undefined;
    first?.();
    if (more) for (const listener of more) listener();
  }

  /** EventEmitter-style: calls `listener` on the abort (`event` must be `abort`); not once aborted. */
  on(event: string, listener: AbortListener): this {
    if (event !== 'abort' || this.aborted) return this;
    if (this.#listener === undefined) this.#listener = listener;
    else if (this.#more === undefined) this.#more = [listener];
    else this.#more.push(listener);
    return this;
  }

  /** Same as {@link UndiciAbort.on}: a request aborts at most once. */
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
}
