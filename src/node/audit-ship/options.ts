import type { AuditEventFormat } from '../../audit/normalise/format.js';
import type { ProxyOption } from '../../core/proxy-rules.js';
import type { BackoffOptions } from '../../core/retry.js';
import type { Transport } from '../../core/transport/types.js';
import type { ArchiveReadFooter } from '../audit-search/footer.js';
import type { ArchiveStoreOptions } from '../audit-store/s3-settings.js';

/** The systems `shipAuditArchive` sends to. */
export type ShipKind = 'elasticsearch' | 'opensearch' | 'splunk-hec';

/** The kinds, as `--kind` takes them. */
export const SHIP_KINDS: readonly ShipKind[] = ['elasticsearch', 'opensearch', 'splunk-hec'];

/** The index (or data stream) an Elasticsearch or OpenSearch ship writes to when none is given: the docs' index template matches `svc-audit-*`. */
export const DEFAULT_SHIP_INDEX = 'svc-audit-events';

/** Documents per `_bulk` request (or HEC request) when none is given. */
export const DEFAULT_SHIP_BATCH_EVENTS = 1000;

/** Largest request body a ship builds when none is given: 5 MiB, the `_bulk` size Elastic's tuning guide starts from, far under `http.max_content_length` (100 MB) and HEC's 1 MB default only for Splunk (see `maxBatchBytes`). */
export const DEFAULT_SHIP_BATCH_BYTES = 5 * 1024 * 1024;

/** Largest HEC request body when none is given: Splunk's `max_content_length` default (1 MB in older releases; 800 MB today), the smaller, so any HEC takes it. */
export const DEFAULT_HEC_BATCH_BYTES = 1_000_000;

/** Credentials of the destination. Never printed, logged or put in an error message. */
export interface ShipCredentials {
  /** Elasticsearch/OpenSearch API key, the encoded form (`Authorization: ApiKey <apiKey>`). */
  apiKey?: string;
  /** User name for Basic authentication (with `password`). */
  username?: string;
  /** Password for Basic authentication. */
  password?: string;
  /** Splunk HEC token (`Authorization: Splunk <token>`). */
  token?: string;
}

/** Options of {@link shipAuditArchive}. */
export interface ShipAuditOptions extends ArchiveStoreOptions {
  /** Base URL of the destination: the cluster (`https://es.example.com:9200`) or the HEC endpoint's host (`https://splunk.example.com:8088`). No user name or password in it: they go in `credentials`. */
  dest: string;
  /** What the destination is. */
  kind: ShipKind;
  /** Elasticsearch/OpenSearch index or data stream; Splunk index (default: the token's default index). Default `svc-audit-events` for Elasticsearch and OpenSearch. */
  index?: string;
  /** Splunk `sourcetype`. Default `svc:audit`. */
  sourcetype?: string;
  /** How each event is sent. Default `ecs` for Elasticsearch and OpenSearch, `raw` (the archived line) for Splunk HEC. */
  format?: AuditEventFormat;
  /** With `ecs` or `ocsf`: the event as received in `event.original` / `raw_data`. Default false. */
  keepOriginal?: boolean;
  /** Start of the range sent, ISO 8601, included. Default: the archive's start. */
  from?: string;
  /** End of the range sent, ISO 8601, included. Default: the archive's head (a later run also sends what later syncs added). */
  to?: string;
  /** The destination's credentials. Default: none. */
  credentials?: ShipCredentials;
  /** Documents per request. Default 1000. */
  batchEvents?: number;
  /** Largest request body, bytes. Default 5 MiB (`_bulk`), 1,000,000 (HEC). A batch answered 413 is split in two until it fits; a single document that does not fit is dead-lettered. */
  maxBatchBytes?: number;
  /**
   * Where documents the destination refused for good (a 4xx other than 409 and 429) are written,
   * one JSON line each with the reason. Default: the file the checkpoint names, else
   * `svc-ship-<checkpoint id>.dead-letter.ndjson` in the working folder. Created when the first
   * one comes; a file of that name that holds data and is not the checkpoint's is never
   * overwritten. When the checkpoint's file is gone (a run on another machine), this run's dead
   * letters start a new file and the receipt's counts stay the checkpoint's.
   */
  deadLetter?: string;
  /** How long documents answered 429 or 5xx (or requests that failed on the network) are sent again before the run gives up, ms. Default 120000. */
  retryForMs?: number;
  /** Silence allowed for one request, ms. Default 30000. */
  timeoutMs?: number;
  /** Forget this destination's checkpoint and dead-letter file and start over (documents already there come back as "already there"). Default false. */
  restart?: boolean;
  /** HEC indexer acknowledgement: events count as sent only once the HEC acknowledges them; those it does not are sent again. Default false. */
  ack?: boolean;
  /** The proxy (as `SvcClientOptions.proxy`). Default: none. */
  proxy?: ProxyOption | undefined;
  /** PEM text of CA certificates trusted besides Node's own roots. Default: none. */
  ca?: string | readonly string[] | undefined;
  /** The transport (tests). Default: undici with `proxy` and `ca`. */
  transport?: Transport;
  /** Backoff between rounds that made no progress (the design's 0.5 s doubling to 8 s, `Retry-After` honoured). */
  backoff?: BackoffOptions;
  /** Waits between rounds (tests pass one that records). Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock, ms (the checkpoint's timing, the give-up time). Default `Date.now`. */
  now?: () => number;
  /** Called after each request with the totals so far. */
  onProgress?: (progress: ShipProgress) => void;
  /** Stops the run: the checkpoint is written and the call rejects with `AbortError`. */
  signal?: AbortSignal;
}

/** Totals of a ship, this run and all runs of the checkpoint. */
export interface ShipCounts {
  /** Documents the destination created. */
  created: number;
  /** Documents it held already (409 to `create` with the event's id): sent by an earlier run. */
  alreadyThere: number;
  /** Documents it refused for good, written to the dead-letter file with the reason. */
  deadLettered: number;
}

/** What {@link ShipAuditOptions.onProgress} is told. */
export interface ShipProgress extends ShipCounts {
  /** Requests sent by this run. */
  requests: number;
  /** Documents waiting to be sent again (429, 5xx). */
  retrying: number;
}

/** What a finished ship proves: `sent` = created + already there + dead-lettered, against the archive's events in the range. */
export interface ShipReceipt extends ShipCounts {
  /** The destination (no credentials). */
  destination: string;
  kind: ShipKind;
  /** Index or data stream (Splunk: the index asked for, or null for the token's default). */
  index: string | null;
  format: AuditEventFormat;
  /** The archive as named. */
  archive: string;
  /** The head manifest read (what `svc audit verify --head` takes), or null for an empty archive. */
  head: ArchiveReadFooter['head'];
  /** The range read, or null when the archive holds no events of it. */
  range: { from: string; to: string } | null;
  /** Whether the archive holds the whole range (no open gap, no hole); `incomplete` names what is missing. */
  whole: boolean;
  incomplete: string[];
  /** Events of the archive in the range. */
  archived: number;
  /** created + alreadyThere + deadLettered, over every run of this checkpoint. */
  sent: number;
  /** `sent` equals `archived`: every event of the range reached the destination or the dead-letter file. */
  complete: boolean;
  /** What this run did. */
  thisRun: ShipCounts & { requests: number; retried: number };
  /** The dead-letter file this run wrote or went on with (absolute), or null when it had none. */
  deadLetterFile: string | null;
  /** The checkpoint object in the archive (`ship-<id>.json`). */
  checkpoint: string;
}
