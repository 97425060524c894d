import type { PendingRun, SyncState } from '../audit-archive/state.js';
import { type EventWindow, WindowBuilder, type WindowEvent } from '../audit-archive/window.js';
import { iso } from './options.js';
import { inRange } from './plan.js';
import type { WrittenKeys } from './run-file.js';

/** Builds the state after a run from the events it writes: the new overlap window, counts per range. */
export class RunTally {
  private readonly ranges: SyncState['ranges'];
  private readonly current: SyncState['ranges'][number];
  private readonly fromMs: number;
  private readonly keepFromMs: number;
  private readonly fresh = new WindowBuilder();
  private newest: SyncState['newest'];
  private newestMs: number;

  constructor(
    private readonly state: SyncState,
    private readonly plan: PendingRun,
    overlapMs: number,
    private readonly known: EventWindow,
  ) {
    this.ranges = state.ranges.map((range) => ({ ...range }));
    for (const hole of plan.lateEvents) {
      // Reported once, in this run's manifest: the missing events are taken as known from now on.
      const occ = Date.parse(hole.to);
      const range = this.ranges.find((r, i) => inRange(r, i, occ));
      if (range) range.events += (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    }
    this.current = { from: plan.from, to: plan.to, events: 0 };
    this.fromMs = Date.parse(plan.from);
    this.keepFromMs = Date.parse(plan.to) - overlapMs;
    this.newest = state.newest;
    this.newestMs = state.newest ? Date.parse(state.newest.occurredAt) : Number.NEGATIVE_INFINITY;
  }

  /** One event the run writes, with its id and time. */
  add(event: WindowEvent, keys: WrittenKeys): void {
    const { occ } = event;
    if (occ >= this.keepFromMs) this.fresh.push(occ, event.id, event.content);
    if (occ > this.newestMs) {
      this.newest = { id: keys.id, occurredAt: keys.occurredAt };
      this.newestMs = occ;
    }
    if (occ > this.fromMs || (this.state.runs === 0 && occ >= this.fromMs)) {
      this.current.events += 1;
      return;
    }
    // A late event inside the overlap: it counts for the earlier run whose range holds it.
    const owner = this.ranges.findLast(
      (r, i) =>
        occ <= Date.parse(r.to) && (occ > Date.parse(r.from) || (i === 0 && occ >= Date.parse(r.from))),
    );
    if (owner) owner.events += 1;
  }

  finish(manifest: { name: string; sha256: string }): SyncState {
    // Events older than the previous window were forgotten: the known window cannot grow backwards.
    const startMs = Math.max(
      this.keepFromMs,
      this.state.recentFrom === null ? Number.NEGATIVE_INFINITY : Date.parse(this.state.recentFrom),
    );
    this.known.addTo(this.fresh);
    const window = this.fresh.build(startMs);
    const { recent: _legacy, ...state } = this.state;
    return {
      ...state,
      runs: this.plan.run,
      watermark: this.plan.to,
      lastManifest: manifest,
      window: window.encode(),
      recentFrom: iso(startMs),
      newest: this.newest,
      ranges: [...this.ranges, this.current],
      pending: null,
    };
  }
}
