import type { S3StoreSettings } from '../audit-store/s3-settings.js';

/** Largest push body accepted by default, as sent and once inflated: 10 MiB (10485760 bytes). */
export const DEFAULT_RECEIVE_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Highest `maxBodyBytes`: 256 MiB, the largest spool object a sync reads back. */
export const MAX_RECEIVE_BODY_BYTES = 256 * 1024 * 1024;

/** The path of the receiver's health route. */
export const RECEIVE_HEALTH_PATH = '/healthz';

/** Options of {@link startAuditReceiver}. */
export interface AuditReceiverOptions {
  /** The archive the pushes go into: a folder path or `s3://bucket/prefix`, as `syncAuditArchive` takes. */
  dir: string;
  /**
   * The address to listen on. Default `127.0.0.1`. Any other (`0.0.0.0` behind an ingress) needs
   * `secrets` or `bearer`: unauthenticated pushes are accepted on loopback only.
   */
  host?: string;
  /** The port. Default 0 (a free one: read it from {@link AuditReceiver.url}). */
  port?: number;
  /**
   * Standard Webhooks secrets (`whsec_<base64 key>`): every push must carry a `webhook-signature`
   * one of them made. Give the new and the old one during a rotation. Default none.
   */
  secrets?: readonly string[];
  /** Secrets accepted as `Authorization: Bearer <secret>`, for senders that do not sign. Default none. */
  bearer?: readonly string[];
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. */
  toleranceSeconds?: number;
  /**
   * Largest body, in bytes, as sent and once inflated (a gzip body that inflates past it is a 413
   * too). Default {@link DEFAULT_RECEIVE_MAX_BODY_BYTES} (10 MiB), at most 256 MiB.
   */
  maxBodyBytes?: number;
  /** Connections open at once. Default 64. */
  maxConnections?: number;
  /** Mode of the spool files of a folder archive. Default 0600. */
  fileMode?: number;
  /** How a bucket archive is reached (as for `syncAuditArchive`). */
  s3?: S3StoreSettings;
  /** The clock, in ms since the epoch (signature tolerance, the health route). Default `Date.now`. */
  now?: () => number;
  /** Called after each push is answered, with what was done (for logs). Default none. */
  onPush?: (report: PushReport) => void;
}

/** What one push request came to. */
export interface PushReport {
  /** The status answered. */
  status: number;
  /** `webhook-id` of a signed push; undefined otherwise. */
  webhookId?: string;
  /** Which check passed: `standard-webhooks`, `bearer`, or `none` (loopback without secrets). */
  check?: 'standard-webhooks' | 'bearer' | 'none';
  /** Events in the body. */
  events: number;
  /** Events new to the archive, written to the spool. */
  spooled: number;
  /** Events the archive held already (same id and bytes): not written again. */
  duplicates: number;
  /** The spool object written, when any. */
  object?: string;
  /** Why the push was refused, one line; undefined when accepted. */
  reason?: string;
}

/** What the health route answers. */
export interface ReceiverHealth {
  status: 'ok';
  /** When the receiver started, ISO 8601. */
  startedAt: string;
  /** Push requests answered 2xx, and refused. */
  accepted: number;
  refused: number;
  /** Events spooled since the start, and duplicates left out. */
  spooled: number;
  duplicates: number;
  /** When the last push was accepted, ISO 8601; null before the first. */
  lastPushAt: string | null;
  /** Newest `occurredAt` spooled since the start; null before the first event. */
  lastEventAt: string | null;
  /** What waits in the archive's spool for a sync to reconcile it: objects and their events. */
  backlog: { objects: number; events: number };
}

/** A running receiver. */
export interface AuditReceiver {
  /** Where senders push to: `http://127.0.0.1:PORT/` (any path is accepted for POST). */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** What the health route answers now. */
  health(): Promise<ReceiverHealth>;
  /** Stops accepting; resolves once the open requests are answered or dropped. */
  close(): Promise<void>;
}
