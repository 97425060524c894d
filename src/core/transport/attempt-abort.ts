import type { Transport, TransportRequest } from './types.js';

/** Ends one attempt early (its timeout, the deadline, the caller's abort); called at most once. */
export interface AttemptAbort {
  abort(): void;
}

/** The key under which the pipeline hands a transport the {@link AttemptAbort} that transport made. */
export const ATTEMPT_ABORT: unique symbol = Symbol('svc-sdk.attemptAbort');

/**
 * The key of a transport's own way to end a request, cheaper than an `AbortSignal`: for each
 * request it handles that way it returns an {@link AttemptAbort} (undefined: the request gets a
 * real `AbortSignal`). The pipeline then makes no `AbortController` for that attempt, aborts it
 * through this object, hands it over as `request[ATTEMPT_ABORT]`, and `signal` is a placeholder
 * that never fires ({@link unreadSignal}). Only the library's undici transport declares it (and
 * the default transport, for the requests it gives undici); any other transport, custom ones
 * included, gets a real `AbortSignal` per attempt.
 */
export const ATTEMPT_ABORTER: unique symbol = Symbol('svc-sdk.attemptAborter');

/** A transport that may declare {@link ATTEMPT_ABORTER}. */
export interface AttemptAbortAware {
  [ATTEMPT_ABORTER]?: (request: TransportRequest) => AttemptAbort | undefined;
}

let placeholder: AbortSignal | undefined;

/**
 * The `signal` of a request whose transport ends it through its own {@link AttemptAbort}: one
 * signal, made once and never fired, that such a transport never reads (nothing listens on it).
 */
export function unreadSignal(): AbortSignal {
  placeholder ??= new AbortController().signal;
  return placeholder;
}

/**
 * How the pipeline ends an attempt of `request` on `transport`: the transport's own
 * {@link AttemptAbort} where it declares {@link ATTEMPT_ABORTER} and takes this request that way
 * (then put in `request[ATTEMPT_ABORT]`), else an `AbortController` whose signal becomes
 * `request.signal`.
 */
export function attemptAbort(transport: Transport, request: TransportRequest): AttemptAbort {
  const own = (transport as AttemptAbortAware)[ATTEMPT_ABORTER]?.(request);
  if (own) {
    (request as { [ATTEMPT_ABORT]?: AttemptAbort })[ATTEMPT_ABORT] = own;
    return own;
  }
  const controller = new AbortController();
  request.signal = controller.signal;
  return controller;
}
