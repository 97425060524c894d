import { loadAuditExport, loadAuditSync } from '#audit-node-only';
import { readRawPage } from '../core/bulk-read.js';
import type { CallSpec, HttpClient, RequestOptions } from '../core/http.js';
import { DEFAULT_RETRY_FOR_MS, type PatienceOptions, patiently } from '../core/patience.js';
import { RETRY_SAFE } from '../core/retry.js';
import { parseRequest, parseResponse } from '../core/schema.js';
import type { ExportOptions, ExportResult } from '../node/audit-export/export.js';
import type { S3StoreSettings } from '../node/audit-store/s3-settings.js';
import type { SyncOptions, SyncResult } from '../node/audit-sync/options.js';
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

/** The audit log API (`GET /platform/v1/events`). */
export class AuditClient {
  constructor(
    private readonly http: HttpClient,
    private readonly key: () => string | undefined,
    /** The client's proxy and CA, for a bucket archive's requests (see {@link sync}). */
    private readonly network: Pick<S3StoreSettings, 'proxy' | 'ca'> = {},
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
   * Exports the range to NDJSON (optionally gzip), resumable through a state file: see
   * {@link ExportOptions}. Events are written exactly as received, newest first.
   *
   * @example
   * const result = await client.audit.exportEvents({ from, to, output: 'audit.ndjson', statePath: 'audit.state.json' });
   * if (!result.countMatches) console.warn('count differs from totalElements');
   */
  async exportEvents(options: ExportOptions): Promise<ExportResult> {
    const { from, to, pageSize } = options;
    parseRequest(ListEventsParamsSchema(), { from, to, pageSize }, 'export options');
    // Loaded on use: the exporter needs node:fs and node:zlib, which other callers do not, and its
    // page scanner and prefetcher are code `import('svc-sdk')` need not compile.
    const { exportPages } = await loadAuditExport();
    const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
    return exportPages(async (query, signal, bodyBuffer) => {
      const checked = parseRequest(ListEventsParamsSchema(), query, 'audit log query');
      return this.get(checked, { signal, retryForMs }, (spec) => readRawPage(this.http, spec, bodyBuffer));
    }, options);
  }

  /**
   * One incremental run into an archive directory: everything new since the previous run, to the
   * server's now minus a lag, as one NDJSON file and one hash-chained manifest; see {@link SyncOptions}.
   *
   * @example
   * const run = await client.audit.sync({ dir: 'audit-archive', gzip: true });
   * if (run.retentionGap || run.lateEvents.length > 0) console.warn('the archive is not whole');
   */
  async sync(options: SyncOptions): Promise<SyncResult> {
    // Loaded on use, like the exporter it drives.
    const { runSync } = await loadAuditSync();
    // A bucket archive's requests take the client's proxy and CA unless `s3` names its own.
    const { proxy, ca } = this.network;
    const s3 = { ...(proxy !== undefined && { proxy }), ...(ca && { ca }), ...options.s3 };
    // Every read of the run (probes, the export) is patient alike.
    const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
    return runSync(
      {
        listEvents: (params, o) => this.listEvents(params, { ...o, retryForMs }),
        exportEvents: (o) => this.exportEvents({ ...o, retryForMs }),
      },
      { ...options, s3 },
    );
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
