import { readRawPage } from '../core/bulk-read.js';
import type { CallSpec, HttpClient, RequestOptions } from '../core/http.js';
import { DEFAULT_RETRY_FOR_MS, type PatienceOptions, patiently } from '../core/patience.js';
import type { ProxyOption } from '../core/proxy-rules.js';
import { RETRY_SAFE } from '../core/retry.js';
import { parseRequest, parseResponse } from '../core/schema.js';
import { followCursors, RecentIds } from './paginate.js';
import { type ListEventsParams, ListEventsParamsSchema, resolveRange } from './query.js';
import { type AuditEvent, type AuditEventPage, AuditEventPageSchema } from './schemas.js';
import { type TailOptions, tailEvents } from './tail.js';

const EVENTS_PATH = '/platform/v1/events';

/** Parameters of `events`: the range and page size; the range is fixed once for the whole iteration. */
export type AuditEventsParams = Omit<ListEventsParams, 'cursor' | 'page'>;

/** Every event of a range: `for await` gives events (duplicates dropped), `pages()` gives pages. */
export interface AuditEventIterable extends AsyncIterable<AuditEvent> {
  /** The pages, as the server returned them. */
  pages(): AsyncIterable<AuditEventPage>;
}

type ParsedQuery = ReturnType<ReturnType<typeof ListEventsParamsSchema>['parse']>;

/**
 * Options of an audit read: those of every call, and how long a page the service throttles (429)
 * or fails (5xx) is retried past `maxRetries` (see {@link PatienceOptions}; default for a single
 * `listEvents` page: none, only `maxRetries`; for `events`, `exportEvents`, `sync` and `tail`: 2
 * minutes).
 */
export interface AuditReadOptions extends RequestOptions, PatienceOptions {}

/** The client's proxy and CA (its default transport's), which a bucket archive's requests take too. */
export interface AuditNetwork {
  proxy?: ProxyOption | undefined;
  ca?: readonly string[] | undefined;
}

/**
 * What the audit jobs of `svc-sdk/node` (export, sync) need of an audit client besides its public
 * calls: raw page reads into a reusable buffer, patiently retried, and the client's network
 * settings. No part of the client's public surface.
 */
export interface AuditJobAccess {
  /** One page of `query` read raw into `bodyBuffer` (see `readRawPage`), retried for `retryForMs`. */
  rawPage(
    query: ListEventsParams,
    options: { signal?: AbortSignal | undefined; retryForMs: number },
    bodyBuffer: (size: number) => Uint8Array,
  ): Promise<Uint8Array>;
  network: AuditNetwork;
}

/** Set by AuditClient's static block: the only code that reaches its private reads. */
let jobAccessOf: (audit: AuditClient) => AuditJobAccess;

/** The {@link AuditJobAccess} of a client, for the audit jobs of `svc-sdk/node`. */
export function auditJobAccess(audit: AuditClient): AuditJobAccess {
  return jobAccessOf(audit);
}

/** The audit log API (`GET /platform/v1/events`). */
export class AuditClient {
  static {
    jobAccessOf = (audit) => ({
      rawPage: (query, options, bodyBuffer) => {
        const checked = parseRequest(ListEventsParamsSchema(), query, 'audit log query');
        return audit.get(checked, options, (spec) => readRawPage(audit.http, spec, bodyBuffer));
      },
      network: audit.network,
    });
  }

  constructor(
    private readonly http: HttpClient,
    private readonly key: () => string | undefined,
    /** The client's proxy and CA, for a bucket archive's requests (`syncAuditArchive`). */
    private readonly network: AuditNetwork = {},
  ) {}

  /** One page as `send` reads it; with `retryForMs`, retried patiently (growing waits, `Retry-After` honoured). */
  private get<T>(
    query: ParsedQuery,
    options: AuditReadOptions | undefined,
    send: (spec: CallSpec) => Promise<T>,
  ): Promise<T> {
    const call = (attempt: RequestOptions = {}) =>
      send({
        method: 'GET',
        path: EVENTS_PATH,
        query,
        auth: { scheme: 'bearer', key: this.key() },
        retry: RETRY_SAFE,
        options: { ...options, ...attempt },
      });
    const retryForMs = options?.retryForMs;
    if (retryForMs === undefined) return call();
    const s = this.http.settings;
    return patiently(call, {
      policy: RETRY_SAFE,
      maxRetries: options?.maxRetries ?? s.maxRetries,
      retryForMs,
      deadlineMs: options?.deadlineMs ?? s.deadlineMs,
      sleep: s.sleep,
      random: s.random,
      now: s.now,
      logger: s.logger,
      signal: options?.signal,
    });
  }

  /**
   * One page, newest first. Pass `nextCursor` as `cursor` with the same `from` and `to` for the
   * next one; `events()` does that for you.
   *
   * @example
   * const page = await client.audit.listEvents({ from: '2026-01-01T00:00:00Z', pageSize: 500 });
   */
  async listEvents(params: ListEventsParams = {}, options: AuditReadOptions = {}): Promise<AuditEventPage> {
    const query = parseRequest(ListEventsParamsSchema(), params, 'audit log query');
    const res = await this.get(query, options, (spec) => this.http.call(spec));
    return parseResponse(AuditEventPageSchema(), res.data, 'audit log page');
  }

  /**
   * Every event of the range, newest first, through cursors. `from` and `to` are fixed before the
   * first request (`to` defaults to now, `from` to 24 hours before), so the range never moves;
   * iteration stops at `nextCursor: null`; a repeated cursor throws; duplicate ids are dropped.
   *
   * @example
   * for await (const event of client.audit.events({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })) {
   *   console.log(event.occurredAt, event.type);
   * }
   */
  events(params: AuditEventsParams = {}, options: AuditReadOptions = {}): AuditEventIterable {
    const checked = parseRequest(ListEventsParamsSchema(), params, 'audit log query');
    const range = resolveRange(checked.from, checked.to);
    const query = parseRequest(ListEventsParamsSchema(), { ...checked, ...range }, 'audit log query');
    const patient = { retryForMs: DEFAULT_RETRY_FOR_MS, ...options };
    const pages = () => followCursors((cursor) => this.listEvents({ ...query, cursor }, patient));
    return {
      pages,
      async *[Symbol.asyncIterator]() {
        const recent = new RecentIds();
        for await (const page of pages()) {
          recent.nextPage();
          for (const event of page.content) if (recent.add(event.id)) yield event;
        }
      },
    };
  }

  /**
   * Follows new events, oldest first, polling with an overlap window (see {@link TailOptions}).
   *
   * @example
   * for await (const event of client.audit.tail({ intervalMs: 10_000, signal })) console.log(event.id);
   */
  tail(options: TailOptions = {}): AsyncIterable<AuditEvent> {
    const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
    return tailEvents((params, signal) => this.listEvents(params, { signal, retryForMs }), options);
  }
}
