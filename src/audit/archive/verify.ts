import { SvcError } from '../../core/errors/error-classes.js';
import type { KeyObjectLike } from '../../core/node-shapes.js';
import type { ArchiveStore } from '../store/archive-store.js';
import { openArchiveStore } from '../store/open-store.js';
import type { ArchiveStoreOptions } from '../store/s3-settings.js';
import { manifestRun } from './fields.js';
import { ArchiveFileError, checkAborted, countObjectLines, hashObject } from './files.js';
import { type ArchiveGap, GapLedger, MAX_MANIFEST_BYTES } from './gaps.js';
import { loadPublicKey, type ManifestFile, parseManifest, signatureValid } from './manifest.js';
import { readSyncState } from './state.js';
import { sha256 } from './writes.js';

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

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Verifies a `sync` archive from its manifests alone: re-hashes every file they list (only
 * regular files inside the archive are opened: no symlinks, FIFOs or devices), recounts their
 * lines, walks the chain (each manifest names the sha256 of the one before), checks that
 * consecutive runs' ranges meet, that each run's count matched the API, that every gap recorded
 * was repaired or acknowledged later in the chain, with a public key every signature, and with
 * `head`/`maxAgeMs` where the chain ends. The unsigned sync state is never trusted: it only adds
 * problems (a head it names that the chain lacks).
 */
export async function verifyAuditArchive(
  dir: string,
  options: VerifyArchiveOptions & ArchiveStoreOptions = {},
): Promise<VerifyArchiveResult> {
  return verifyArchive(await openArchiveStore(dir, options), options);
}

/** {@link verifyAuditArchive} of an archive's store. */
export async function verifyArchive(
  store: ArchiveStore,
  options: VerifyArchiveOptions = {},
): Promise<VerifyArchiveResult> {
  const { signal } = options;
  const key = options.publicKey === undefined ? undefined : loadPublicKey(options.publicKey);
  const anchor = options.head
    ?.trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (anchor !== undefined && !SHA256_HEX.test(anchor))
    throw new SvcError('head must be the sha256 of a manifest: 64 hex digits', 'config');
  const problems: ArchiveProblem[] = [];
  const report = (kind: ArchiveProblemKind, file: string, message: string) =>
    problems.push({ kind, file, message: `${file}: ${message}` });
  const entries = await store.list({ mustExist: true });
  const names = entries
    .map((entry) => ({ name: entry.name, run: manifestRun(entry.name) }))
    .filter((entry): entry is { name: string; run: number } => entry.run !== undefined)
    .sort((a, b) => a.run - b.run);
  const state = await readSyncState(store).catch(() => undefined);
  const stateHead = state?.lastManifest ? (manifestRun(state.lastManifest.name) ?? 0) : 0;
  const lastRun = names.at(-1)?.run ?? 0;
  const byRun = new Map(names.map((entry) => [entry.run, entry.name]));
  const ledger = new GapLedger();
  const chain: ArchiveRunCoverage[] = [];
  const holes: VerifyArchiveResult['holes'] = [];
  let previous: { name: string; sha256: string } | undefined;
  let lastRegular: { run: number; to: string } | undefined;
  let events = 0;
  for (let run = 1; run <= lastRun; run++) {
    checkAborted(signal);
    const name = byRun.get(run);
    if (name === undefined) {
      report('missing-manifest', `manifest-${String(run).padStart(6, '0')}.json`, `missing (run ${run})`);
      previous = undefined;
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await store.read(name, MAX_MANIFEST_BYTES);
    } catch (error) {
      if (!(error instanceof ArchiveFileError)) throw error;
      report('unsafe-file', name, error.message);
      previous = undefined;
      continue;
    }
    const parsed = parseManifest(bytes.toString('utf8'));
    if (!parsed.ok) {
      report('bad-manifest', name, `not a manifest sync writes (${parsed.reason})`);
      previous = undefined;
      continue;
    }
    const { raw, manifest } = parsed;
    const digest = sha256(bytes);
    if (manifest.run !== run) report('bad-manifest', name, `names run ${manifest.run}, expected ${run}`);
    if (run === 1 && manifest.previous !== null)
      report('broken-link', name, 'first run names a previous manifest');
    if (run > 1) {
      if (manifest.previous === null) report('broken-link', name, 'names no previous manifest');
      else if (
        previous &&
        (manifest.previous.name !== previous.name || manifest.previous.sha256 !== previous.sha256)
      )
        report(
          'broken-link',
          name,
          `does not match the sha256 of ${previous.name} (it was changed or replaced)`,
        );
    }
    const backfill = manifest.kind === 'backfill';
    if (!backfill) {
      if (lastRegular && lastRegular.to !== manifest.range.from) {
        report(
          'gap',
          name,
          `range starts at ${manifest.range.from} but run ${lastRegular.run} ended at ${lastRegular.to}`,
        );
        holes.push({ from: lastRegular.to, to: manifest.range.from, after: name });
      }
      lastRegular = { run, to: manifest.range.to };
    }
    if (key && !signatureValid(raw, key))
      report('bad-signature', name, 'signature missing or not made by the given key');
    if (!manifest.countMatches)
      report(
        'count-mismatch',
        name,
        `the API counted ${manifest.totalElements} events for ${manifest.query.from} to ${manifest.query.to}, the archive holds ${manifest.files.reduce((n, f) => n + f.events, 0) + manifest.alreadyArchived}`,
      );
    ledger.add(manifest, name);
    const listed = [...manifest.files, ...(manifest.conflicts ? [manifest.conflicts] : [])];
    for (const file of listed) {
      events += manifest.files.includes(file) ? file.events : 0;
      await checkFile(store, file, name, report, signal);
    }
    if (options.requireRetention)
      for (const object of [name, ...listed.map((file) => file.name)])
        await checkRetention(store, object, options.requireRetention.days, options.now ?? Date.now, report);
    chain.push({
      run,
      manifest: name,
      sha256: digest,
      kind: backfill ? 'backfill' : 'run',
      from: manifest.range.from,
      to: manifest.range.to,
      events: manifest.files.reduce((n, f) => n + f.events, 0),
    });
    previous = { name, sha256: digest };
  }
  for (const gap of ledger.open()) {
    const what =
      gap.cause === 'retention'
        ? `retention gap: events between ${gap.from} and ${gap.to} may have expired before any run read them`
        : gap.cause === 'late'
          ? `${gap.events} late events between ${gap.from} and ${gap.to} are not in the archive`
          : `${gap.events} events came again with other content (kept in the run's conflicts file)`;
    report(
      'incomplete',
      gap.manifest,
      `${what} (gap ${gap.id}: repair with sync --backfill${gap.mayStillHold ? '' : ', which cannot fetch it'}, or acknowledge with gaps ack)`,
    );
  }
  if (lastRun === 0)
    report('missing-manifest', '.', 'no manifest: not an archive written by sync, or an empty one');
  const newest = chain.at(-1);
  const tip = newest && newest.run === lastRun ? newest : undefined;
  const head = tip ? { manifest: tip.manifest, sha256: tip.sha256, to: lastRegular?.to ?? tip.to } : null;
  if (stateHead > lastRun)
    report(
      'missing-manifest',
      state?.lastManifest?.name ?? '.',
      `missing: the sync state names it as the newest run, the archive ends at run ${lastRun}`,
    );
  const recorded = state?.lastManifest;
  if (recorded && tip && tip.manifest === recorded.name && tip.sha256 !== recorded.sha256)
    report(
      'broken-link',
      recorded.name,
      'does not match the sha256 the sync state recorded (it was changed or replaced)',
    );
  if (anchor !== undefined) checkAnchor(anchor, chain, head, report);
  if (options.maxAgeMs !== undefined && head) {
    const age = (options.now ?? Date.now)() - Date.parse(head.to);
    if (age > options.maxAgeMs)
      report(
        'stale-head',
        head.manifest,
        `the newest run ends at ${head.to}, ${Math.round(age / 60_000)} min ago, longer than --max-age allows (runs lost or rolled back?)`,
      );
  }
  return {
    ok: problems.length === 0,
    runs: chain.length,
    events,
    problems,
    chain,
    holes,
    gaps: ledger.all(),
    head,
  };
}

/** `requireRetention`: the object must be under Object Lock retention for at least `days` more. */
async function checkRetention(
  store: ArchiveStore,
  name: string,
  days: number | undefined,
  now: () => number,
  report: (kind: ArchiveProblemKind, file: string, message: string) => void,
): Promise<void> {
  if (!store.retention) {
    report('retention', name, 'no retention: a folder keeps none (only a bucket with Object Lock does)');
    return;
  }
  const kept = await store.retention(name).catch((error: unknown) => {
    if (error instanceof ArchiveFileError) return undefined;
    throw error;
  });
  if (kept === undefined) return; // missing: reported by the file check
  if (kept === null) {
    report('retention', name, 'no Object Lock retention');
    return;
  }
  const left = Date.parse(kept.until) - now();
  if (days !== undefined && left < days * 86_400_000)
    report(
      'retention',
      name,
      `retention (${kept.mode.toLowerCase()}) ends ${kept.until}, sooner than the ${days} days asked`,
    );
}

/** Re-hashes and recounts one file a manifest lists. */
async function checkFile(
  store: ArchiveStore,
  file: ManifestFile,
  manifest: string,
  report: (kind: ArchiveProblemKind, file: string, message: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  let found: { sha256: string; bytes: number };
  try {
    found = await hashObject(store, file.name, signal);
  } catch (error) {
    if (!(error instanceof ArchiveFileError)) throw error;
    if (error.message === 'missing') report('missing-file', file.name, `missing (listed in ${manifest})`);
    else report('unsafe-file', file.name, `${error.message} (listed in ${manifest})`);
    return;
  }
  if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
    report('changed-file', file.name, `sha256 or size differs from ${manifest}`);
    return;
  }
  const lines = await countObjectLines(store, file.name, file.name.endsWith('.gz'), signal);
  if (lines !== file.events)
    report(
      'count-mismatch',
      file.name,
      `holds ${lines ?? 'unreadable'} events, ${manifest} lists ${file.events}`,
    );
}

/** `--head`: the chain must end at exactly the manifest whose sha256 the anchor names. */
function checkAnchor(
  anchor: string,
  chain: ArchiveRunCoverage[],
  head: VerifyArchiveResult['head'],
  report: (kind: ArchiveProblemKind, file: string, message: string) => void,
): void {
  if (head?.sha256 === anchor) return;
  const earlier = chain.find((run) => run.sha256 === anchor);
  const at = head?.manifest ?? '.';
  if (earlier)
    report(
      'head-mismatch',
      at,
      `the chain ends after the anchored head ${earlier.manifest}: runs were added that the anchor does not know`,
    );
  else
    report(
      'head-mismatch',
      at,
      `the chain does not end at the anchored head (sha256 ${anchor.slice(0, 12)}...): runs were lost, rolled back or replaced`,
    );
}
