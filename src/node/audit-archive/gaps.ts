import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestRun } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { checkAborted } from './files.js';
import { type Manifest, parseManifest } from './manifest.js';

/** Why part of the archive may be missing. */
export type GapCause = 'retention' | 'late' | 'conflict';

/** A gap a manifest recorded, and what became of it later in the chain. */
export interface ArchiveGap {
  /** `run3.late1`, `run3.retention`, `run3.conflicts`: the run that recorded it and what it is. */
  id: string;
  cause: GapCause;
  /** The manifest that recorded it. */
  manifest: string;
  from: string;
  to: string;
  /** Events missing (late events), conflicting (conflicts), or null when unknown (retention). */
  events: number | null;
  /**
   * Whether the API may still hold the missing events, so `sync --backfill` can repair the gap:
   * true for late events until a backfill found them expired; false for a retention gap (they
   * expired) and for conflicts (nothing is missing: two versions of an event were kept).
   */
  mayStillHold: boolean;
  /** `open` until a later manifest repairs (backfill) or acknowledges it. */
  status: 'open' | 'repaired' | 'acknowledged';
  /** The manifest that repaired or acknowledged it. */
  resolvedBy: string | null;
  /** The reason given with `svc audit gaps ack`. */
  reason: string | null;
  /**
   * For a conflict: the run's conflicts file, which holds the copies kept apart (events the
   * archive holds with other content, and pushed copies the pull API did not confirm). Null for
   * the other causes.
   */
  file: string | null;
}

/** The earlier of two stamps (ISO 8601 UTC, so they compare as text). */
const earlier = (a: string, b: string | null): string => (b !== null && b < a ? b : a);

/** The gaps a manifest records, all open. */
export function gapsOf(manifest: Manifest, name: string): ArchiveGap[] {
  const gaps: ArchiveGap[] = [];
  const base = { manifest: name, status: 'open' as const, resolvedBy: null, reason: null, file: null };
  const gap = manifest.retentionGap;
  if (gap) {
    gaps.push({
      ...base,
      id: `run${manifest.run}.retention`,
      cause: 'retention',
      from: gap.from,
      to: gap.to,
      events: null,
      mayStillHold: false,
    });
  }
  manifest.lateEvents.forEach((hole, index) => {
    gaps.push({
      ...base,
      id: `run${manifest.run}.late${index + 1}`,
      cause: 'late',
      from: hole.from,
      to: hole.to,
      events: (hole.apiCount ?? 0) - (hole.archivedCount ?? 0),
      mayStillHold: true,
    });
  });
  const conflicts = manifest.conflicts;
  if (conflicts && conflicts.events > 0) {
    gaps.push({
      ...base,
      id: `run${manifest.run}.conflicts`,
      cause: 'conflict',
      // A late pushed copy kept apart may be older than the query: the gap covers it too.
      from: earlier(manifest.query.from, manifest.push?.keptFrom ?? null),
      to: manifest.query.to,
      events: conflicts.events,
      mayStillHold: false,
      file: conflicts.name,
    });
  }
  return gaps;
}

/**
 * Follows the gaps along a chain of manifests, oldest first: each manifest adds the gaps it
 * records, then resolves the earlier ones it repairs (`repairs`) or acknowledges (`acknowledged`).
 * `expired` names gaps a backfill found no longer held by the API.
 */
export class GapLedger {
  private readonly byId = new Map<string, ArchiveGap>();

  constructor(private readonly expired: ReadonlySet<string> = new Set()) {}

  add(manifest: Manifest, name: string): void {
    for (const id of manifest.repairs ?? []) this.resolve(id, 'repaired', name, null);
    for (const ack of manifest.acknowledged ?? []) this.resolve(ack.gap, 'acknowledged', name, ack.reason);
    for (const gap of gapsOf(manifest, name)) {
      this.byId.set(gap.id, { ...gap, mayStillHold: gap.mayStillHold && !this.expired.has(gap.id) });
    }
  }

  private resolve(id: string, status: ArchiveGap['status'], by: string, reason: string | null): void {
    const gap = this.byId.get(id);
    if (gap && gap.status === 'open') this.byId.set(id, { ...gap, status, resolvedBy: by, reason });
  }

  get(id: string): ArchiveGap | undefined {
    return this.byId.get(id);
  }

  /** Every gap, in the order recorded. */
  all(): ArchiveGap[] {
    return [...this.byId.values()];
  }

  open(): ArchiveGap[] {
    return this.all().filter((gap) => gap.status === 'open');
  }
}

/** A manifest larger than this is not one (a run's manifest is a few kB). */
export const MAX_MANIFEST_BYTES = 1 << 20;

/**
 * The gaps of an archive from the manifests it holds (never a walk of run numbers), oldest first (in a folder only regular files are read); a
 * manifest that cannot be read is skipped and named in `unreadable` with the reason (`svc audit
 * verify` reports it too). `expired` names gaps a backfill found the API no longer holds.
 */
export async function readGaps(
  store: ArchiveStore,
  expired: ReadonlySet<string> = new Set(),
  /** Stops the reading with an `AbortError` once fired (SIGINT/SIGTERM). Default: none. */
  signal?: AbortSignal,
): Promise<{ ledger: GapLedger; unreadable: Array<{ manifest: string; reason: string }> }> {
  const ledger = new GapLedger(expired);
  const unreadable: Array<{ manifest: string; reason: string }> = [];
  const names = (await store.list({ ...(signal && { signal }) }))
    .map((entry) => ({ name: entry.name, run: manifestRun(entry.name) }))
    .filter((entry): entry is { name: string; run: number } => entry.run !== undefined)
    .sort((a, b) => a.run - b.run);
  for (const { name } of names) {
    checkAborted(signal);
    let text: string;
    try {
      text = (await store.read(name, MAX_MANIFEST_BYTES)).toString('utf8');
    } catch (error) {
      if (!(error instanceof ArchiveFileError)) throw error;
      unreadable.push({ manifest: name, reason: error.message });
      continue;
    }
    const parsed = parseManifest(text);
    if (parsed.ok) ledger.add(parsed.manifest, name);
    else unreadable.push({ manifest: name, reason: `not a manifest sync writes (${parsed.reason})` });
  }
  return { ledger, unreadable };
}
