// What `verifyAuditArchive` takes and reports: its options, the chain it walked and the problems it found.
import type { KeyObjectLike } from '../../core/node-shapes.js';
import type { ArchiveGap } from './gaps.js';

/** Kinds of problem `verifyAuditArchive` reports. */
export type ArchiveProblemKind =
  | 'missing-manifest'
  | 'bad-manifest'
  | 'broken-link'
  | 'missing-file'
  | 'changed-file'
  | 'unsafe-file'
  | 'count-mismatch'
  | 'gap'
  | 'bad-signature'
  | 'incomplete'
  | 'stale-head'
  | 'head-mismatch'
  | 'retention';

/** One problem, with a one-line message naming the file. */
export interface ArchiveProblem {
  kind: ArchiveProblemKind;
  /** The file concerned, relative to the archive directory. */
  file: string;
  message: string;
}

/** Options of `verifyAuditArchive`. */
export interface VerifyArchiveOptions {
  /**
   * Ed25519 public key (PEM text or key object). When given, every manifest must carry a valid
   * signature by its private half. Default: signatures are not checked.
   */
  publicKey?: string | KeyObjectLike;
  /**
   * Fail (`stale-head`) when the newest run's range ends longer ago than this many ms: a nightly
   * job whose last runs were lost or rolled back is caught. Default: not checked.
   */
  maxAgeMs?: number;
  /**
   * The sha256 (hex) of the manifest the chain must end at, as the sync printed it (`head
   * sha256:...`): fail (`head-mismatch`) when the newest manifest is another. Default: not checked.
   */
  head?: string;
  /**
   * Fail (`retention`) where a manifest or a file it lists has no Object Lock retention, or, with
   * `days`, one that ends sooner than that many days from now. Only a bucket keeps retention: on a
   * folder every object fails. Default: not checked.
   */
  requireRetention?: { days?: number };
  /** The clock `maxAgeMs` and `requireRetention` are measured against (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** Stops between reads with `AbortError`. */
  signal?: AbortSignal;
}

/** One run of the chain: what it covers, by whom it was written. */
export interface ArchiveRunCoverage {
  run: number;
  manifest: string;
  /** sha256 (hex) of the manifest file: what the next manifest links to. */
  sha256: string;
  kind: 'run' | 'backfill';
  /** The range the run covers (a backfill: the gap it fetched again). */
  from: string;
  to: string;
  events: number;
}

/** What `verifyAuditArchive` found. */
export interface VerifyArchiveResult {
  /** true only when no problem was found. */
  ok: boolean;
  /** Manifests read. */
  runs: number;
  /** Events the manifests list. */
  events: number;
  problems: ArchiveProblem[];
  /** Each readable manifest of the chain, oldest first. */
  chain: ArchiveRunCoverage[];
  /** Time between consecutive regular runs that no run covers. */
  holes: Array<{ from: string; to: string; after: string }>;
  /** Every gap the manifests recorded, repaired, acknowledged or open. */
  gaps: ArchiveGap[];
  /** The newest manifest (the head of the chain), null when there is none. */
  head: { manifest: string; sha256: string; to: string } | null;
}
