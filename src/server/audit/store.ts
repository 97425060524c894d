import { compareDesc, ExplicitSegment, GeneratedSegment, permute32, type Segment } from './segments.js';
import { type AuditOwner, ownerKey } from './templates.js';

/** A position in the newest-first order: the last event a page delivered. */
export interface EventKey {
  occ: number;
  id: string;
}

/** What one page query asks for. */
export interface PageQuery {
  owner: string;
  fromMs: number;
  toMs: number;
  /** Events older than this are past the plan's retention. */
  cutoffMs: number;
  /** Only segments with `seq <= snapshot` are visible, so events added while paging never show up. */
  snapshot: number;
  /** Continue after this key (cursor paging). */
  after?: EventKey | undefined;
  /** Events to skip before the page (page-number paging). */
  skip: number;
  limit: number;
}

/** One page of results. */
export interface PageResult {
  events: Array<Record<string, unknown>>;
  /** Events of the whole range visible at the snapshot. */
  total: number;
  /** Key of the last event delivered, when more events follow. */
  more: EventKey | undefined;
}

/** First position in `[lo, hi)` where `past(p)` holds; `past` is false then true along the segment. */
function firstWhere(lo: number, hi: number, past: (p: number) => boolean): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (past(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** The events of every project and agency, as immutable segments merged at query time. */
export class AuditStore {
  private segments: Segment[] = [];
  /** Never reset: a cursor from before a reset cannot see segments added after it. */
  private seq = 0;
  private batch = 0;
  private explicitIds = new Map<string, Set<string>>();
  private readonly added: Array<(segment: Segment) => void> = [];

  /** The current snapshot number for a new first page. */
  get snapshot(): number {
    return this.seq;
  }

  /** Calls `listener` with every segment added from now on (the audit streams push them); kept across resets. */
  onAdd(listener: (segment: Segment) => void): void {
    this.added.push(listener);
  }

  private record<S extends Segment>(segment: S): S {
    this.segments.push(segment);
    for (const listener of this.added) listener(segment);
    return segment;
  }

  reset(): void {
    this.segments = [];
    this.batch = 0;
    this.explicitIds = new Map();
  }

  /** Adds `count` generated events over `[fromMs, toMs]`; deterministic per batch number after a reset. */
  generate(owner: AuditOwner, count: number, fromMs: number, toMs: number): GeneratedSegment {
    this.batch += 1;
    this.seq += 1;
    return this.record(new GeneratedSegment(this.seq, owner, count, fromMs, toMs, permute32(this.batch)));
  }

  /** Adds explicit events; throws when an id is repeated or already stored for the owner. */
  addEvents(owner: AuditOwner, events: ReadonlyArray<Record<string, unknown>>): ExplicitSegment {
    const key = ownerKey(owner);
    const known = this.explicitIds.get(key) ?? new Set<string>();
    const fresh = new Set<string>();
    for (const event of events) {
      const id = String(event.id);
      if (known.has(id) || fresh.has(id)) throw new Error(`event id ${id} is already stored`);
      fresh.add(id);
    }
    for (const id of fresh) known.add(id);
    this.explicitIds.set(key, known);
    this.seq += 1;
    return this.record(new ExplicitSegment(this.seq, key, events));
  }

  /** One page: merges the visible segments newest first. */
  page(q: PageQuery): PageResult {
    const low = Math.max(q.fromMs, q.cutoffMs);
    const runs: Array<{ seg: Segment; pos: number; end: number }> = [];
    let total = 0;
    for (const seg of this.segments) {
      if (seg.owner !== q.owner || seg.seq > q.snapshot) continue;
      const start = firstWhere(0, seg.size, (p) => seg.occAt(p) <= q.toMs);
      const end = firstWhere(start, seg.size, (p) => seg.occAt(p) < low);
      total += end - start;
      const after = q.after;
      const pos = after
        ? firstWhere(start, end, (p) => compareDesc(seg.occAt(p), seg.idAt(p), after.occ, after.id) > 0)
        : start;
      if (pos < end) runs.push({ seg, pos, end });
    }
    // Keep each run's head key at hand so the merge compares without recomputing.
    const heads = runs.map((r) => ({ occ: r.seg.occAt(r.pos), id: r.seg.idAt(r.pos) }));
    const events: Array<Record<string, unknown>> = [];
    let skip = q.skip;
    let last: EventKey | undefined;
    while (events.length < q.limit) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        const head = heads[i] as EventKey;
        const run = runs[i] as (typeof runs)[number];
        if (run.pos >= run.end) continue;
        const current = heads[best];
        if (best < 0 || (current && compareDesc(head.occ, head.id, current.occ, current.id) < 0)) best = i;
      }
      if (best < 0) break;
      const run = runs[best] as (typeof runs)[number];
      const head = heads[best] as EventKey;
      if (skip > 0) skip -= 1;
      else {
        events.push(run.seg.eventAt(run.pos));
        last = { occ: head.occ, id: head.id };
      }
      run.pos += 1;
      if (run.pos < run.end) heads[best] = { occ: run.seg.occAt(run.pos), id: run.seg.idAt(run.pos) };
    }
    const remaining = runs.some((r) => r.pos < r.end);
    return { events, total, more: remaining && last ? last : undefined };
  }
}
