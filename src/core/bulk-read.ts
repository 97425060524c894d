import type { CallSpec, HttpClient } from './http.js';
import type { SuccessReader } from './success-body.js';
import type { TransportResponse } from './transport/types.js';

// A custom transport may ignore `responseType` and give text only.
function bodyBytes(response: TransportResponse): Uint8Array {
  return response.bytes ?? new TextEncoder().encode(response.body);
}

const FRESH_BUFFERS: SuccessReader<Uint8Array> = { responseType: 'bytes', read: bodyBytes };

/**
 * A bulk read: `spec` sent with the pipeline's retries, timeouts and error mapping, its success
 * body kept as the bytes received, unparsed, for a caller that scans them itself (the audit
 * exporter's raw pages). With `bodyBuffer` a body of announced length is read into the memory it
 * returns (see `TransportRequest.bodyBuffer`); the result then views that memory. The default
 * transport on Node reads a request with a `bodyBuffer` through `node:http` (transport/default.ts).
 */
export function readRawPage(
  http: HttpClient,
  spec: CallSpec,
  bodyBuffer?: (size: number) => Uint8Array,
): Promise<Uint8Array> {
  const reader = bodyBuffer ? { responseType: 'bytes' as const, bodyBuffer, read: bodyBytes } : FRESH_BUFFERS;
  return http.read(spec, reader);
}
