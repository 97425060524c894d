import type { ProxyOption } from '../../core/proxy-rules.js';

// What an `s3://` archive is opened with. Types only: the AWS SDK is loaded by s3-store.ts, and only
// for an `s3://` location, so a folder archive (and `import('svc-sdk')`) never loads it.

/** Object Lock retention mode: `governance` (a user with a special permission may lift it) or `compliance` (no one may). */
export type RetainMode = 'governance' | 'compliance';

/** Default {@link S3StoreSettings.maxAttempts}: tries of one S3 request (the SDK's standard retry mode, with backoff). */
export const DEFAULT_S3_MAX_ATTEMPTS = 8;

/** Default {@link S3StoreSettings.timeoutMs}: 30 seconds of silence, as the API clients' `timeoutMs`. */
export const DEFAULT_S3_TIMEOUT_MS = 30_000;

/**
 * Default {@link S3StoreSettings.lockTtlMs}: 15 minutes. A running sync renews its lock every 5
 * minutes; one not renewed for 15 (its holder was killed on another machine) may be taken over.
 */
export const DEFAULT_S3_LOCK_TTL_MS = 15 * 60_000;

/**
 * Settings of a bucket archive, taken as the AWS CLI and SDKs take them: credentials come from the
 * SDK's default chain (environment, shared profile, web identity for GitHub OIDC, instance
 * role) unless the program gives its own.
 */
export interface S3StoreSettings {
  /**
   * Credentials given by the program itself (never printed or written). Default: the SDK's chain
   * (`AWS_ACCESS_KEY_ID`..., `AWS_PROFILE`, web identity, instance role), which the CLI uses.
   */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** The region. Default: the SDK's chain (`AWS_REGION`, the profile), else `us-east-1`. */
  region?: string;
  /**
   * The S3 endpoint of an S3-compatible store (MinIO, R2, a test server), e.g.
   * `http://127.0.0.1:9000`. Default: the SDK's (`AWS_ENDPOINT_URL_S3`, the profile, else AWS).
   */
  endpoint?: string;
  /**
   * Path-style addressing (`https://host/bucket/key`) instead of virtual-hosted (`bucket.host`).
   * Default: on when an endpoint is given (MinIO and most self-hosted stores need it), off for AWS.
   */
  pathStyle?: boolean;
  /**
   * The proxy of the store's requests: one proxy URL (`http://user:pass@proxy:3128`),
   * `ProxySettings` per scheme with a `NO_PROXY` list (curl's rules, matched against the
   * endpoint's host: the bucket's host name when virtual-hosted, `BUCKET.s3.REGION.amazonaws.com`
   * on AWS), or `false`. Connections go through the proxy with `CONNECT` (hpagent's agents, the
   * AWS SDK guide's way); its user and password appear in no message. Default: in
   * `syncAuditArchive`, the client's own `proxy`; elsewhere none, direct (the AWS SDK reads no
   * proxy variable; the CLI passes `--proxy`, `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`).
   */
  proxy?: ProxyOption;
  /**
   * PEM certificates (one PEM text each) trusted for the store's https connections (and an
   * https proxy's) besides Node's own roots, which they are added to, never replace
   * (`NODE_EXTRA_CA_CERTS` and, on Node 22.15+, `--use-system-ca` keep working). Default: in
   * `syncAuditArchive`, the client's own `ca`; elsewhere none, Node's roots only. The CLI passes `--ca-file` / `SVC_CA_FILE` and `AWS_CA_BUNDLE`.
   */
  ca?: readonly string[];
  /**
   * Most milliseconds a store request may stay silent: to connect, for the answer to start, and
   * between bytes of its body (the SDK handler's `connectionTimeout` and `socketTimeout`), as
   * `--timeout` bounds an API request. A slow but steady transfer never times out; a store that
   * announces a byte and never sends it fails the request as a timeout, which is tried again
   * like any (`maxAttempts`) and then fails the run with one line. Default 30 000; the CLI passes
   * `--timeout` (`SVC_TIMEOUT`, profile `timeout`).
   */
  timeoutMs?: number;
  /** Tries of one request before it fails: 500, 503 SlowDown, resets and timeouts are retried with backoff. Default 8. */
  maxAttempts?: number;
  /**
   * Object Lock retention set on every object a run writes, in days (1 to 36500). Before its first
   * write the store writes a probe object with that retention and reads it back
   * (GetObjectRetention): a store that did not keep it (no retention, an earlier date, another
   * mode) stops the run with an `io` SvcError before anything else is written. Default: none.
   */
  retainDays?: number;
  /** Mode of that retention. Default `governance`. */
  retainMode?: RetainMode;
  /**
   * Lifetime of the archive's lock, ms: the run holding it moves its expiry on every third of it;
   * a lock not renewed for this long is taken as abandoned (its holder was killed) and may be
   * taken over. Default 15 minutes.
   */
  lockTtlMs?: number;
  /** The clock of the lock's expiry and the retention dates. Default `Date.now`. */
  now?: () => number;
  /**
   * Runs the lock's renewal: calls `task` every `everyMs` ms until the returned function is
   * called (`task` settles when that renewal is done, and never rejects). Default: an interval
   * timer that does not keep the process alive.
   */
  schedule?: (everyMs: number, task: () => Promise<void>) => () => void;
  /** Receives warnings, one line each (a store that ignores `If-None-Match`, a lock lost meanwhile). Default: none. */
  onWarning?: (line: string) => void;
  /** Receives one redacted line per S3 request and answer (`--debug`). Default: none. */
  debug?: (line: string) => void;
}

/** Options of `openArchiveStore`. */
export interface ArchiveStoreOptions {
  /** Mode of a folder archive's data files and manifests. Default 0o600. */
  fileMode?: number;
  /** A bucket archive's local work folder (the run's export); it must be this user's, mode 0700. Default: the per-user cache folder (`~/.cache/svc`, `%LOCALAPPDATA%\\svc`). */
  workDir?: string;
  /** Settings of an `s3://` archive. */
  s3?: S3StoreSettings;
}
