import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { toIssues } from '../../core/zod-issues.js';
import { BODY_LIMITS, readJson, sendJson } from '../http-io.js';
import { HttpProblem } from '../problem.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import type { Segment } from './segments.js';
import { AuditStreamBody, type CreateAuditStream, parseStreamConfig } from './stream-config.js';
import { type AuditStreamCounters, AuditStreamDelivery, type AuditStreamOptions } from './stream-delivery.js';
import { ownerKey } from './templates.js';

/** Streams one server holds at most; more is 409 (each holds sockets and batches). */
export const MAX_STREAMS = 64;

/** A stream as `POST` and `GET /__admin/audit-streams` answer it (the secret is never shown). */
export interface AuditStreamRecord {
  streamId: string;
  url: string;
  format: 'single' | 'array' | 'ndjson';
  gzip: boolean;
  batchSize: number;
  scope: 'project' | 'agency';
  ownerId: string;
  faults: { duplicateRate: number; reorder: boolean; dropRate: number; delayMs: number; seed: number };
  createdAt: string;
  counters: AuditStreamCounters;
  /** Why the last failed attempt failed: `status 500`, `ECONNREFUSED`, `timeout`... */
  lastError?: string;
}

/** In-process admin operations of audit streaming (the same as `/__admin/audit-streams`). */
export interface AuditStreamsAdmin {
  /** Pushes every event recorded for the owner from now on to `url`; `HttpProblem` 422 for an invalid body, 409 past {@link MAX_STREAMS}. */
  createAuditStream(input: CreateAuditStream): AuditStreamRecord;
  /** The streams with their counters, oldest first. */
  auditStreams(): AuditStreamRecord[];
  /** Stops a stream and forgets what it had not delivered; false when there is no such stream. */
  deleteAuditStream(streamId: string): boolean;
  /**
   * Resolves once the stream (or every stream) has delivered or dropped every event recorded so
   * far; with the receiver down it waits for as long as the retries take. `HttpProblem` 404 for
   * an unknown stream.
   */
  flushAuditStreams(streamId?: string): Promise<void>;
}

interface Stream {
  id: string;
  createdAt: number;
  delivery: AuditStreamDelivery;
}

/** The streams of one server: each receives the segments the audit store records for its owner. */
export class AuditStreams implements AuditStreamsAdmin {
  private readonly streams = new Map<string, Stream>();

  constructor(
    private readonly state: ServerState,
    private readonly options: AuditStreamOptions = {},
  ) {
    state.onReset(() => this.close());
  }

  /** Hands a recorded segment to every stream of its owner. */
  record(segment: Segment): void {
    for (const stream of this.streams.values()) {
      if (ownerKey(stream.delivery.config.owner) === segment.owner) stream.delivery.record(segment);
    }
  }

  createAuditStream(input: CreateAuditStream): AuditStreamRecord {
    const config = parseStreamConfig(input);
    if (this.streams.size >= MAX_STREAMS)
      throw new HttpProblem(409, `At most ${MAX_STREAMS} audit streams; delete one first`);
    const token = randomBytes(8).toString('hex');
    const id = `as_${token}`;
    const delivery = new AuditStreamDelivery(`msg_${token}`, config, this.state.clock, this.options);
    const stream = { id, createdAt: this.state.clock.now(), delivery };
    this.streams.set(id, stream);
    return describe(stream);
  }

  auditStreams(): AuditStreamRecord[] {
    return [...this.streams.values()].map(describe);
  }

  /** One stream; `HttpProblem` 404 when unknown. */
  auditStream(streamId: string): AuditStreamRecord {
    return describe(this.get(streamId));
  }

  deleteAuditStream(streamId: string): boolean {
    const stream = this.streams.get(streamId);
    if (!stream) return false;
    this.streams.delete(streamId);
    stream.delivery.close();
    return true;
  }

  async flushAuditStreams(streamId?: string): Promise<void> {
    const streams = streamId === undefined ? [...this.streams.values()] : [this.get(streamId)];
    await Promise.all(streams.map((s) => s.delivery.flush()));
  }

  /** Stops every stream (reset, server close). */
  close(): void {
    for (const stream of this.streams.values()) stream.delivery.close();
    this.streams.clear();
  }

  private get(streamId: string): Stream {
    const stream = this.streams.get(streamId);
    if (!stream) throw new HttpProblem(404, `No audit stream ${streamId}`);
    return stream;
  }
}

function describe(stream: Stream): AuditStreamRecord {
  const { config, lastError } = stream.delivery;
  return {
    streamId: stream.id,
    url: config.url,
    format: config.format,
    gzip: config.gzip,
    batchSize: config.batchSize,
    scope: config.owner.kind,
    ownerId: config.owner.id,
    faults: { ...config.faults },
    createdAt: new Date(stream.createdAt).toISOString(),
    counters: stream.delivery.counters,
    ...(lastError !== undefined && { lastError }),
  };
}

/** Query of `POST /__admin/audit-streams/{streamId}/flush`. */
export const FlushQuery = z.strictObject({
  timeoutMs: z._default(z.coerce.number().check(z.int()).check(z.gte(0)).check(z.lte(600_000)), 30_000),
});

/** Waits for `promise` at most `ms`; true when it settled in time. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `POST`, `GET /__admin/audit-streams`; `DELETE /__admin/audit-streams/{streamId}`;
 * `POST /__admin/audit-streams/{streamId}/flush`.
 */
export function auditStreamRoutes(streams: AuditStreams): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/__admin/audit-streams',
      doc: {
        summary:
          'Pushes every audit event recorded for the owner (default project demo) from now on to url, at least once: batched as single objects, a JSON array or NDJSON, gzip or not, signed per Standard Webhooks with secret, retried 0.5 s doubling to 30 s until a 2xx for as long as the stream exists; faults make the push lossy (duplicates, reordering, drops, delays).',
        body: AuditStreamBody,
        example: {
          url: 'http://127.0.0.1:8787/audit',
          format: 'ndjson',
          secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        },
        returns:
          '201 {streamId, url, format, gzip, batchSize, scope, ownerId, faults, createdAt, counters, lastError?}',
      },
      handle: async ({ req, res }) =>
        sendJson(
          res,
          201,
          streams.createAuditStream((await readJson(req, BODY_LIMITS.admin)) as CreateAuditStream),
        ),
    },
    {
      method: 'GET',
      pattern: '/__admin/audit-streams',
      doc: {
        summary:
          'The audit streams with their counters: recorded, pushed, delivered, batchesDelivered, attempts, failedAttempts, dropped, duplicated, queued.',
        returns: '200 {streams}',
      },
      handle: ({ res }) => sendJson(res, 200, { streams: streams.auditStreams() }),
    },
    {
      method: 'DELETE',
      pattern: '/__admin/audit-streams/:streamId',
      doc: {
        summary: 'Stops an audit stream; what it had not delivered is never sent. 404 for an unknown id.',
        examplePath: '/__admin/audit-streams/STREAM_ID',
        returns: '200 {streamId, counters, ...}',
      },
      handle: ({ res, params }) => {
        const record = streams.auditStream(params.streamId as string);
        streams.deleteAuditStream(record.streamId);
        sendJson(res, 200, record);
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/audit-streams/:streamId/flush',
      doc: {
        summary:
          'Waits until the stream has delivered (or dropped) every event recorded so far, at most timeoutMs; answers its counters and whether it is flushed. 404 for an unknown id.',
        query: 'timeoutMs=0..600000 (default 30000)',
        examplePath: '/__admin/audit-streams/STREAM_ID/flush',
        returns: '200 {flushed, stream}',
      },
      handle: async ({ res, params, query }) => {
        const parsed = FlushQuery.safeParse(Object.fromEntries(query));
        if (!parsed.success) throw new HttpProblem(422, 'Invalid query', toIssues(parsed.error));
        const id = params.streamId as string;
        streams.auditStream(id);
        const flushed = await within(streams.flushAuditStreams(id), parsed.data.timeoutMs);
        sendJson(res, 200, { flushed, stream: streams.auditStream(id) });
      },
    },
  ];
}
