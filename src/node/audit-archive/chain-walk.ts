// The walk along an archive's chain of manifests that `verifyAuditArchive` makes: each manifest
// read, linked, ranged and signed as sync wrote it, each file it lists re-hashed and recounted.
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestName, manifestRun } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { countDataLines, longerThanListed } from './data-lines.js';
import { hashObject, sha256 } from './files.js';
import { GapLedger, MAX_MANIFEST_BYTES } from './gaps.js';
import { type loadPublicKey, type ManifestFile, parseManifest, signatureValid } from './manifest.js';
import type { SyncState } from './state.js';
import type {
  ArchiveProblem,
  ArchiveProblemKind,
  ArchiveRunCoverage,
  VerifyArchiveOptions,
  VerifyArchiveResult,
} from './verify-result.js';

/** What one manifest says, once read and parsed. */
type ParsedManifest = Extract<ReturnType<typeof parseManifest>, { ok: true }>;

/**
 * What a walk does besides checking the chain: verify re-hashes and recounts every listed file
 * (`checkFiles`, the default); a search checks only the files it reads, as it reads them, and
 * takes each manifest of the chain as it is passed (`onManifest`).
 */
export interface WalkMode {
  checkFiles: boolean;
  onManifest?: (entry: { run: number; name: string; manifest: ParsedManifest['manifest'] }) => void;
}

/**
 * The walk along the chain, along the manifests that exist from run 1 to the last: what was found so far (problems, coverage, gaps)
 * and what the next manifest is checked against (the previous manifest's digest, where the last
 * regular run ended).
 */
export class ChainWalk {
  readonly problems: ArchiveProblem[] = [];
  readonly chain: ArchiveRunCoverage[] = [];
  readonly holes: VerifyArchiveResult['holes'] = [];
  readonly ledger = new GapLedger();
  events = 0;
  /** The previous manifest, while the chain is unbroken up to it. */
  previous: { name: string; sha256: string } | undefined;
  lastRegular: { run: number; to: string } | undefined;
  readonly report = (kind: ArchiveProblemKind, file: string, message: string) =>
    this.problems.push({ kind, file, message: `${file}: ${message}` });

  constructor(
    private readonly store: ArchiveStore,
    private readonly options: VerifyArchiveOptions,
    private readonly key: ReturnType<typeof loadPublicKey> | undefined,
    private readonly mode: WalkMode = { checkFiles: true },
  ) {}

  /**
   * Runs `from` to `to` have no manifest: one problem for the lot (`runs 3-99999998`), however
   * many they are, named after the first one's manifest.
   */
  missing(from: number, to: number): void {
    this.report(
      'missing-manifest',
      manifestName(from),
      from === to ? `missing (run ${from})` : `missing (runs ${from}-${to}, none of them in the archive)`,
    );
    this.previous = undefined;
  }

  /** Checks run `run`'s manifest (`name`) and every file it lists. */
  async step(run: number, name: string): Promise<void> {
    const read = await this.read(run, name);
    if (read === undefined) {
      this.previous = undefined;
      return;
    }
    const { raw, manifest } = read.parsed;
    this.checkLink(run, name, manifest);
    const backfill = manifest.kind === 'backfill';
    if (!backfill) this.checkRange(run, name, manifest.range);
    if (this.key && !signatureValid(raw, this.key))
      this.report('bad-signature', name, 'signature missing or not made by the given key');
    if (!manifest.countMatches)
      this.report(
        'count-mismatch',
        name,
        `the API counted ${manifest.totalElements} events for ${manifest.query.from} to ${manifest.query.to}, the archive holds ${manifest.files.reduce((n, f) => n + f.events, 0) + manifest.alreadyArchived}`,
      );
    this.ledger.add(manifest, name);
    if (this.mode.checkFiles) await this.checkFiles(name, manifest);
    else this.events += manifest.files.reduce((n, f) => n + f.events, 0);
    this.mode.onManifest?.({ run, name, manifest });
    this.chain.push({
      run,
      manifest: name,
      sha256: read.sha256,
      kind: backfill ? 'backfill' : 'run',
      from: manifest.range.from,
      to: manifest.range.to,
      events: manifest.files.reduce((n, f) => n + f.events, 0),
    });
    this.previous = { name, sha256: read.sha256 };
  }

  /** The manifest of run `run`, parsed with its digest; undefined (reported) when missing, unsafe or not one. */
  private async read(run: number, name: string) {
    let bytes: Buffer;
    try {
      bytes = await this.store.read(name, MAX_MANIFEST_BYTES);
    } catch (error) {
      if (!(error instanceof ArchiveFileError)) throw error;
      this.report('unsafe-file', name, error.message);
      return undefined;
    }
    const parsed = parseManifest(bytes.toString('utf8'));
    if (!parsed.ok) {
      this.report('bad-manifest', name, `not a manifest sync writes (${parsed.reason})`);
      return undefined;
    }
    if (parsed.manifest.run !== run)
      this.report('bad-manifest', name, `names run ${parsed.manifest.run}, expected ${run}`);
    return { parsed, sha256: sha256(bytes) };
  }

  /** The link to the previous manifest: none for run 1, the previous one's name and sha256 after it. */
  private checkLink(run: number, name: string, manifest: ParsedManifest['manifest']): void {
    if (run === 1) {
      if (manifest.previous !== null) this.report('broken-link', name, 'first run names a previous manifest');
      return;
    }
    const previous = this.previous;
    if (manifest.previous === null) this.report('broken-link', name, 'names no previous manifest');
    else if (
      previous &&
      (manifest.previous.name !== previous.name || manifest.previous.sha256 !== previous.sha256)
    )
      this.report(
        'broken-link',
        name,
        `does not match the sha256 of ${previous.name} (it was changed or replaced)`,
      );
  }

  /** A regular run starts where the one before it ended; a hole between them is reported and kept. */
  private checkRange(run: number, name: string, range: { from: string; to: string }): void {
    const last = this.lastRegular;
    if (last && last.to !== range.from) {
      this.report('gap', name, `range starts at ${range.from} but run ${last.run} ended at ${last.to}`);
      this.holes.push({ from: last.to, to: range.from, after: name });
    }
    this.lastRegular = { run, to: range.to };
  }

  /** Every file the manifest lists (its conflicts file too): re-hashed, lines recounted, retention checked. */
  private async checkFiles(name: string, manifest: ParsedManifest['manifest']): Promise<void> {
    const listed = [...manifest.files, ...(manifest.conflicts ? [manifest.conflicts] : [])];
    for (const file of listed) {
      this.events += manifest.files.includes(file) ? file.events : 0;
      await checkFile(this.store, file, name, this.report, this.options.signal);
    }
    const required = this.options.requireRetention;
    if (required)
      for (const object of [name, ...listed.map((file) => file.name)])
        await checkRetention(this.store, object, required.days, this.options.now ?? Date.now, this.report);
  }

  /**
   * After the last run: gaps left open, an empty archive, what the unsigned state claims beyond
   * the chain, and the caller's anchor and maximum age; then the result.
   */
  end(lastRun: number, state: SyncState | undefined, anchor: string | undefined): VerifyArchiveResult {
    for (const gap of this.ledger.open()) this.report('incomplete', gap.manifest, openGapMessage(gap));
    if (lastRun === 0)
      this.report('missing-manifest', '.', 'no manifest: not an archive written by sync, or an empty one');
    const newest = this.chain.at(-1);
    const tip = newest && newest.run === lastRun ? newest : undefined;
    const head = tip
      ? { manifest: tip.manifest, sha256: tip.sha256, to: this.lastRegular?.to ?? tip.to }
      : null;
    const recorded = state?.lastManifest;
    if ((recorded ? (manifestRun(recorded.name) ?? 0) : 0) > lastRun)
      this.report(
        'missing-manifest',
        recorded?.name ?? '.',
        `missing: the sync state names it as the newest run, the archive ends at run ${lastRun}`,
      );
    if (recorded && tip && tip.manifest === recorded.name && tip.sha256 !== recorded.sha256)
      this.report(
        'broken-link',
        recorded.name,
        'does not match the sha256 the sync state recorded (it was changed or replaced)',
      );
    if (anchor !== undefined) checkAnchor(anchor, this.chain, head, this.report);
    const maxAgeMs = this.options.maxAgeMs;
    if (maxAgeMs !== undefined && head) {
      const age = (this.options.now ?? Date.now)() - Date.parse(head.to);
      if (age > maxAgeMs)
        this.report(
          'stale-head',
          head.manifest,
          `the newest run ends at ${head.to}, ${Math.round(age / 60_000)} min ago, longer than --max-age allows (runs lost or rolled back?)`,
        );
    }
    return {
      ok: this.problems.length === 0,
      runs: this.chain.length,
      events: this.events,
      problems: this.problems,
      chain: this.chain,
      holes: this.holes,
      gaps: this.ledger.all(),
      head,
    };
  }
}

/** The problem line of a gap no later run repaired or acknowledged. */
function openGapMessage(gap: ReturnType<GapLedger['open']>[number]): string {
  const what =
    gap.cause === 'retention'
      ? `retention gap: events between ${gap.from} and ${gap.to} may have expired before any run read them`
      : gap.cause === 'late'
        ? `${gap.events} late events between ${gap.from} and ${gap.to} are not in the archive`
        : `${gap.events} events kept apart in the run's conflicts file (another version of an archived event, or a push the pull API did not confirm)`;
  return `${what} (gap ${gap.id}: repair with sync --backfill${gap.mayStillHold ? '' : ', which cannot fetch it'}, or acknowledge with gaps ack)`;
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

/**
 * Re-hashes and recounts one file a manifest lists, fetching at most its listed size plus one
 * byte; a file that does not count within the caps of data-lines.ts is one problem naming it.
 */
async function checkFile(
  store: ArchiveStore,
  file: ManifestFile,
  manifest: string,
  report: (kind: ArchiveProblemKind, file: string, message: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  let found: { sha256: string; bytes: number };
  try {
    found = await hashObject(store, file.name, signal, file.bytes + 1);
  } catch (error) {
    if (!(error instanceof ArchiveFileError)) throw error;
    if (error.message === 'missing') report('missing-file', file.name, `missing (listed in ${manifest})`);
    else report('unsafe-file', file.name, `${error.message} (listed in ${manifest})`);
    return;
  }
  if (found.bytes > file.bytes) {
    report('changed-file', file.name, `${longerThanListed} (${manifest} lists ${file.bytes} bytes)`);
    return;
  }
  if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
    report('changed-file', file.name, `sha256 or size differs from ${manifest}`);
    return;
  }
  let lines: number;
  try {
    lines = await countDataLines(store, file, signal);
  } catch (error) {
    if (!(error instanceof ArchiveFileError)) throw error;
    report('count-mismatch', file.name, `cannot be counted: ${error.message} (listed in ${manifest})`);
    return;
  }
  if (lines !== file.events)
    report('count-mismatch', file.name, `holds ${lines} events, ${manifest} lists ${file.events}`);
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
