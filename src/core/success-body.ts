import { MalformedResponseError } from './errors/error-classes.js';
import type { TransportResponse } from './transport/types.js';

/** A successful response with its body parsed as JSON (undefined when empty). */
export interface CallResult {
  status: number;
  headers: Record<string, string | undefined>;
  data: unknown;
  /** The body text exactly as received. */
  text: string;
  requestId: string | undefined;
}

/**
 * How a call reads a success body: the form it asks the transport for, and what it makes of the
 * response. `HttpClient.call` parses JSON ({@link JSON_BODY}); a bulk read keeps the bytes
 * (bulk-read.ts).
 */
export interface SuccessReader<T> {
  /** See `TransportRequest.responseType`. */
  readonly responseType: 'text' | 'bytes';
  /** See `TransportRequest.bodyBuffer`. */
  readonly bodyBuffer?: ((size: number) => Uint8Array) | undefined;
  /**
   * The caller's result of a success. `late`: a `successOnRetry` status (its body is not the
   * answer); `call` names the call in errors.
   */
  read(
    response: TransportResponse,
    requestId: string | undefined,
    late: boolean,
    call: { method: string; path: string },
  ): T;
}

/** The reader of `HttpClient.call`: the body parsed as JSON, and its text. */
export const JSON_BODY: SuccessReader<CallResult> = {
  responseType: 'text',
  read(response, requestId, late, call) {
    let data: unknown;
    if (response.body !== '' && !late) {
      try {
        data = JSON.parse(response.body);
      } catch (error) {
        throw new MalformedResponseError(`Response is not JSON: ${call.method} ${call.path}`, {
          cause: error,
        });
      }
    }
    return { status: response.status, headers: response.headers, data, text: response.body, requestId };
  },
};
