import type { ResponseTooLargeError } from '../errors/error-classes.js';

/** One HTTP exchange as the request pipeline hands it to a transport. */
export interface TransportRequest {
  method: string;
  /** Absolute URL; always on the client's configured origin. */
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /**
   * The body as bytes, sent instead of `body` (which is then absent): for a caller that encodes a
   * large body into a buffer of its own (`shipAuditArchive`), which it keeps unchanged until the
   * request settles. The transports of this package honour it; a custom transport used by such a
   * caller must too. Default: none.
   */
  bodyBytes?: Uint8Array | undefined;
  /** Fires on the attempt's timeout (silence or deadline) or the caller's abort. */
  signal: AbortSignal;
  /**
   * The attempt's silence clock, set by the pipeline: a transport reports here what arrives, so
   * `timeoutMs` bounds each silence (before the headers, between body chunks) rather than the
   * whole download. A transport that reports nothing gets one bound on the whole attempt.
   */
  watch?: SilenceWatch | undefined;
  /** `bytes`: return the body as bytes in `bytes` (and `body` empty), for callers that scan it themselves. Default `text`. */
  responseType?: 'text' | 'bytes';
  /**
   * With `bytes`: where a success body of announced length `size` may be read, for a caller that
   * reuses its buffers across calls (the result then views this memory, valid until the caller
   * reuses it). Must return at least `size` bytes. Default: a new buffer per body.
   */
  bodyBuffer?: ((size: number) => Uint8Array) | undefined;
  /**
   * Byte cap of a success (2xx) body, counted after any decompression. Past it the transport
   * stops reading, destroys the body stream and throws {@link ResponseTooLargeError}. Default: none.
   */
  maxBytes?: number;
  /** Byte cap of any other body (errors, redirects). Default: `maxBytes`. */
  maxErrorBytes?: number;
}

/**
 * How a transport tells the pipeline that an attempt is not silent. Call {@link SilenceWatch.heard}
 * when the response headers arrive and on each body chunk; the attempt is aborted (through
 * `signal`) once `idleMs` pass without news. A transport that enforces the silence of the body
 * itself (undici's `bodyTimeout`) calls {@link SilenceWatch.handOver} once the headers are in,
 * and {@link SilenceWatch.silent} when its own limit ends the request.
 */
export interface SilenceWatch {
  /** The silence allowed, ms: the attempt's `timeoutMs`. */
  readonly idleMs: number;
  /** The headers or a body chunk arrived: the silence counts from now. Cheap: call it per chunk. */
  heard(): void;
  /** The transport watches the silence of the rest of the body itself (the call's deadline still holds). */
  handOver(): void;
  /** The transport's own silence limit (after `handOver`) ended the request: a timeout, not a broken connection. */
  silent(): void;
}

/** A complete response: the body is read to the end before the transport returns. */
export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: string;
  /** The body as bytes, when `responseType` was `bytes`. */
  bytes?: Uint8Array;
}

/**
 * Moves bytes. It must not follow redirects and must throw {@link ConnectionError} (with
 * `requestSent` set honestly) for network failures; aborts are rethrown as they come. It should
 * honour `maxBytes`/`maxErrorBytes` while reading (the pipeline checks the length again, but
 * only a transport can keep an oversized body out of memory).
 */
export interface Transport {
  /** Sends one request and resolves with its status, headers and body. */
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Releases pooled connections. */
  close?(): Promise<void>;
}

/** Any function with the shape of the global `fetch` (Node, Bun, Deno, edge runtimes, nock-patched fetch). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
