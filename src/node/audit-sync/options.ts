import type { ListEventsParams } from '../../audit/query.js';
import type { AuditEventPage } from '../../audit/schemas.js';
import { SvcError } from '../../core/errors/error-classes.js';
import type { RequestOptions } from '../../core/http.js';
import type { KeyObjectLike } from '../../core/node-shapes.js';
import type { PatienceOptions } from '../../core/patience.js';
import type { PushReconcile } from '../audit-archive/manifest.js';
import type { ArchiveHole } from '../audit-archive/state.js';
import type { ExportOptions, ExportProgress, ExportResult } from '../audit-export/export.js';
import type { S3StoreSettings } from '../audit-store/s3-settings.js';

/** Default `lagMs`: events of the last 5 minutes wait for the next run. */
export const DEFAULT_SYNC_LAG_MS = 5 * 60_000;
/** Default `overlapMs`: each run re-reads 10 minutes before the previous run's end. */
export const DEFAULT_SYNC_OVERLAP_MS = 10 * 60_000;
/** Default `lateCheckRuns`: how many earlier runs are re-counted for late events. */
export const DEFAULT_LATE_CHECK_RUNS = 100;
/** `from` of a first run without `since`: everything the API still returns (it applies the retention). */
export const SYNC_EPOCH = '1970-01-01T00:00:00.000Z';

/** Options of `syncAuditArchive`; its reads retry a throttled (429) or failing (5xx) page for `retryForMs` (default 2 minutes). */
export interface SyncOptions extends PatienceOptions {
  /**
   * The archive: a directory (created when missing) or an `s3://bucket/prefix` URL, with the same
   * objects: data files, manifests, `sync-state.json`, `sync.lock`.
   */
  dir: string;
  /**
   * A bucket archive's local work folder: the run's export waits in a folder of its own inside
   * it (removed when the run ends); nothing the archive needs is kept there, so a run on another
   * machine continues without it. It must be this user's own folder with no permission bits for
   * group or others (created 0700 when absent), else the run stops with one line naming it.
   * Default: the per-user cache folder (`$XDG_CACHE_HOME/svc` or `~/.cache/svc`,
   * `~/Library/Caches/svc`, `%LOCALAPPDATA%\\svc`), never the shared temp folder. A folder archive
   * works inside itself.
   */
  workDir?: string;
  /** Settings of an `s3://` archive (endpoint, region, retention...). Default: the AWS SDK's own. */
  s3?: S3StoreSettings;
  /**
   * Start of the first run (inclusive); ignored once the directory holds a run. Default: everything
   * the API still returns (its retention decides).
   */
  since?: string | Date;
  /** A run ends this long before the server's now, so events still being recorded wait. Default 300000 (5 min). */
  lagMs?: number;
  /**
   * Each run re-reads this long before the previous run's end, catching events recorded late with an
   * older `occurredAt`; ids archived already are skipped. Default 600000 (10 min).
   */
  overlapMs?: number;
  /** Writes the run's file gzip-compressed (`.ndjson.gz`). Default false. */
  gzip?: boolean;
  /**
   * Replace a data or conflicts file of the new run that exists in `dir` although no manifest
   * lists it (left by another tool). Without it such a file is refused (`OutputPathError`,
   * nothing written). A file a manifest lists and a manifest are never replaced, force or not.
   * Files of an interrupted run are its own: a rerun replaces them without it. Default false.
   */
  force?: boolean;
  /**
   * Mode of the data files and manifests the sync creates. Default 0o600 (owner only). The state and
   * the lock are always 0600 and the work folder `.sync-work` 0700, whatever this says. A `dir`
   * that does not exist yet is created with this mode plus the search bit for each who may read
   * (0o700 by default, 0o750 for 0o640); an existing folder keeps its mode.
   */
  fileMode?: number;
  /** Ed25519 private key (PEM text or key object): each manifest is signed. Default: unsigned. */
  signKey?: string | KeyObjectLike;
  /** Events per request, 1 to 1000. Default 1000. */
  pageSize?: number;
  /** Earlier runs re-counted at the API for events that arrived after the overlap. Default 100. */
  lateCheckRuns?: number;
  /**
   * Instead of the next run: fetch every open gap the manifests recorded (late events) again, each
   * as a run of its own (kind `backfill`, chained and signed like any run), writing the events the
   * archive lacks. A gap whose events the API no longer holds is left open (`expired`): acknowledge
   * it with `acknowledgeGap`. Default false.
   */
  backfill?: boolean;
  /** Stops after the current page; rejects with `AbortError`, a rerun resumes the same run. */
  signal?: AbortSignal;
  /** Called after every page of the run's export. */
  onProgress?: (progress: ExportProgress) => void;
  /**
   * Receives warnings, one line each: a sync state that did not match the archive's manifests
   * and was rebuilt from them (it is never followed to replace an object). Default: none.
   */
  onWarning?: (line: string) => void;
}

/** What a sync run did. */
export interface SyncResult {
  /**
   * `synced`: a run was written; `up-to-date`: nothing new yet (no file, no manifest);
   * `backfilled`: `backfill` wrote runs for gaps (or found none it could repair).
   */
  status: 'synced' | 'up-to-date' | 'backfilled';
  run: number | null;
  /** Range covered by the run (`up-to-date`: where the next run starts, and `to` null), and the server's now it was computed from. */
  from: string;
  to: string | null;
  serverNow: string;
  /** File names of the run, relative to `dir`. */
  file: string | null;
  manifest: string | null;
  /** Events written by this run. */
  events: number;
  /** Events of the range that earlier runs had archived already. */
  alreadyArchived: number;
  totalElements: number | null;
  countMatches: boolean;
  /** true when this run continued one that was interrupted. */
  resumed: boolean;
  retentionGap: ArchiveHole | null;
  lateEvents: ArchiveHole[];
  /** Events the API returned outside the run's range: counted, not written. */
  outOfRange: number;
  /** Events whose id the archive holds with other content (kept in `conflictsFile`, with the pushed events `push` kept apart). */
  conflicts: number;
  conflictsFile: string | null;
  /** Gaps this run's manifest records as acknowledged (`acknowledgeGap`). */
  acknowledged: string[];
  /**
   * What the run found comparing the archive's push spool (`startAuditReceiver`) with the pull
   * API, as its manifest records it; null when the archive had no spool for the run.
   */
  push: PushReconcile | null;
  /** `backfill`: gaps repaired, and gaps whose events the API no longer holds (acknowledge them). */
  repaired: string[];
  expired: string[];
  /**
   * The newest manifest and the sha256 of its file: the head to anchor outside the archive
   * (`verifyAuditArchive(dir, { head })`). Null while the archive has no run.
   */
  head: { manifest: string; sha256: string } | null;
}

/** The audit API calls a sync uses. */
export interface SyncApi {
  listEvents(params: ListEventsParams, options?: RequestOptions): Promise<AuditEventPage>;
  exportEvents(options: ExportOptions): Promise<ExportResult>;
}

/** An ISO 8601 UTC timestamp with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A whole number of ms >= 0, or the default; a config error otherwise. */
export function nonNegative(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new SvcError(`${name} must be a whole number >= 0`, 'config');
  return n;
}
