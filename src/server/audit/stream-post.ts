import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { signAuditPush } from '../../audit/push/signature.js';
import { errorName } from '../tax/webhook-endpoint.js';
import type { StreamBatch } from './stream-batches.js';
import type { AuditStreamConfig } from './stream-config.js';

const gzipAsync = promisify(gzip);

/** A batch as it goes on the wire. */
export interface EncodedBatch {
  /** What the request carries, and what the signature covers: the JSON or NDJSON text, gzipped when the stream says so. */
  bytes: Buffer;
  contentType: 'application/json' | 'application/x-ndjson';
  gzip: boolean;
  events: number;
}

/** The body of a batch: one object (`single`), a JSON array, or NDJSON (a line per event, each ended by `\n`). */
export async function encodeBatch(batch: StreamBatch, config: AuditStreamConfig): Promise<EncodedBatch> {
  const events = batch.positions.map((p) => batch.segment.eventAt(p));
  const payload =
    config.format === 'ndjson'
      ? events.map((e) => `${JSON.stringify(e)}\n`).join('')
      : JSON.stringify(config.format === 'single' ? events[0] : events);
  const text = Buffer.from(payload, 'utf8');
  return {
    bytes: config.gzip ? await gzipAsync(text) : text,
    contentType: config.format === 'ndjson' ? 'application/x-ndjson' : 'application/json',
    gzip: config.gzip,
    events: events.length,
  };
}

/** How one attempt ended: the answer's status, or the error (`timeout`, `ECONNREFUSED`, ...). */
export type PushEnd = { status: number } | { error: string };

/** A stream's endpoint: its URL and a keep-alive agent with one socket per batch in flight. */
export class PushTarget {
  readonly url: URL;
  readonly agent: HttpAgent;

  constructor(href: string, sockets: number) {
    this.url = new URL(href);
    const Agent = this.url.protocol === 'https:' ? HttpsAgent : HttpAgent;
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * POSTs a batch signed per Standard Webhooks (`webhook-id`, `webhook-timestamp` in unix seconds,
 * `webhook-signature: v1,<base64>`); resolves once the answer was read, or with the error.
 * `signal` ends the attempt (its timeout, or the stream going away).
 */
export async function pushBatch(
  target: PushTarget,
  body: EncodedBatch,
  headers: { id: string; timestamp: number; secret: string },
  signal: AbortSignal,
): Promise<PushEnd> {
  // Over the body as sent (the gzip bytes when gzipped), as src/audit/push verifies it.
  const signature = await signAuditPush(headers.secret, headers.id, headers.timestamp, body.bytes);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PushEnd>((resolve) => {
    const req = send(
      target.url,
      {
        method: 'POST',
        agent: target.agent,
        headers: {
          'content-type': body.contentType,
          'content-length': body.bytes.length,
          ...(body.gzip && { 'content-encoding': 'gzip' }),
          'user-agent': 'svc-reference-server',
          'webhook-id': headers.id,
          'webhook-timestamp': String(headers.timestamp),
          'webhook-signature': signature,
        },
        signal,
      },
      (res) => {
        res.on('error', (error) => resolve({ error: errorName(error) }));
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.resume();
      },
    );
    req.on('error', (error) => resolve({ error: errorName(error) }));
    req.end(body.bytes);
  });
}
