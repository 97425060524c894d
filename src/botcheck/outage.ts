import { ConnectionError, InternalServerError, TimeoutError } from '../core/errors/error-classes.js';

/**
 * Whether a fetch failed because the service is out, the only failure `failOpen` may accept: the
 * network failed (connection refused, reset or cut; transports raise {@link ConnectionError} only
 * for that), the attempt timed out, or the service answered 5xx. Not an outage: any other status
 * (403, 404, 410, 423, 429), a malformed answer, a body over the cap, an abort, and local errors
 * (`TransportError`: a runtime permission, an invalid request; code `config`: a transport that
 * cannot load).
 */
export function isOutage(error: unknown): boolean {
  return (
    error instanceof ConnectionError || error instanceof TimeoutError || error instanceof InternalServerError
  );
}
