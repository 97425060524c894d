import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNodeBody } from '../core/request-body.js';
import { HttpProblem } from './problem.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Largest request body each kind of route reads, in bytes, counted on the bytes received
 * (`Content-Length`, chunked or not): one byte more is 413 and the connection is closed.
 */
export const BODY_LIMITS = Object.freeze({
  /** `POST /validations/batch`: 1000 items with every field near its cap fit. 16 MiB. */
  taxBatch: 16 * MIB,
  /**
   * `POST /validations` and `POST /schedules`: one item is a few KiB at most; 4 MiB (the client's
   * own cap on a tax answer) leaves an over-long field to be named by a 422 rather than cut off.
   */
  taxItem: 4 * MIB,
  /** `POST /__admin/audit-events` with `{events}`: up to 100,000 events given as they are. 16 MiB. */
  auditEvents: 16 * MIB,
  /** Every other admin route and the console's changes (clock, faults, providers...). 64 KiB. */
  admin: 64 * KIB,
  /** `POST /__widget/verifications`, which loopback pages may call: `{"outcome":"unfinished"}` is 24 bytes. 1 KiB. */
  widget: KIB,
});

/**
 * Reads and parses a JSON body of at most `limit` bytes ({@link BODY_LIMITS}); 400 for bad JSON,
 * 413 past the limit (with `Connection: close`: the rest is not read), undefined when empty.
 */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  // The shape type is what the adapters accept from any framework; Node's overloaded `off`
  // signature does not match it structurally, though every IncomingMessage is one.
  const read = await readNodeBody(req, limit);
  if (!read.ok && read.reason === 'too-large') {
    throw new HttpProblem(413, `Request body over ${limit} bytes`, undefined, { connection: 'close' });
  }
  if (!read.ok) throw new HttpProblem(400, 'Request body not received in full');
  const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpProblem(400, 'Request body is not valid JSON');
  }
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Writes an empty response. */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}
