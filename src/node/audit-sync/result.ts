import type { PendingRun, SyncState } from '../audit-archive/state.js';
import type { SyncResult } from './options.js';
import { pulledConflicts, type Written } from './run-file.js';

/** What a carried-out run adds to its result. */
export interface RunDone {
  plan: PendingRun;
  written: Written;
  /** The manifest the run wrote. */
  manifest: string;
  totalElements: number | null;
  countMatches: boolean;
  resumed: boolean;
  /** The gaps the run's manifest records as acknowledged. */
  acknowledged: string[];
}

/**
 * The one place a `SyncResult` is made: with `done`, what a run wrote; without, nothing done yet
 * (`up-to-date` from `from`). `head` is the archive's newest manifest after the call.
 */
export function syncResult(
  head: SyncResult['head'],
  at: { from: string; serverNow: string },
  done?: RunDone,
): SyncResult {
  const plan = done?.plan;
  const written = done?.written;
  const conflicts = written?.conflicts;
  return {
    status: plan === undefined ? 'up-to-date' : plan.repairs ? 'backfilled' : 'synced',
    run: plan?.run ?? null,
    from: plan?.from ?? at.from,
    to: plan?.to ?? null,
    serverNow: at.serverNow,
    file: written?.file.name ?? null,
    manifest: done?.manifest ?? null,
    events: written?.file.events ?? 0,
    alreadyArchived: written?.alreadyArchived ?? 0,
    totalElements: done?.totalElements ?? null,
    countMatches: done?.countMatches ?? true,
    resumed: done?.resumed ?? false,
    retentionGap: plan?.retentionGap ?? null,
    lateEvents: plan?.lateEvents ?? [],
    outOfRange: written?.outOfRange ?? 0,
    conflicts: written ? pulledConflicts(written) : 0,
    conflictsFile: conflicts?.name ?? null,
    acknowledged: done?.acknowledged ?? [],
    push: written?.push ?? null,
    repaired: done?.countMatches ? (plan?.repairs ?? []) : [],
    expired: [],
    head,
  };
}

/** The head a state names, as a result shows it. */
export const headOf = (state: SyncState): SyncResult['head'] =>
  state.lastManifest ? { manifest: state.lastManifest.name, sha256: state.lastManifest.sha256 } : null;
