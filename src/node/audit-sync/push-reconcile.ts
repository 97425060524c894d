import { SvcError } from '../../core/errors/error-classes.js';
import { IdTable } from '../audit-archive/id-table.js';
import type { PushReconcile } from '../audit-archive/manifest.js';
import type { PendingRun } from '../audit-archive/state.js';
import { contentKey, idKey, type KnownEvents } from '../audit-archive/window.js';
import {
  listSpool,
  type SpoolEvent,
  type SpoolObject,
  spoolEvents,
  writeSpoolObject,
} from '../audit-push/spool.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';

// A run's reconcile of the push spool (`svc audit receive`) with the pull API. The run's data
// file is always what the pull API returned: the spool only tells which of those events a push
// had delivered, and which pushed events the pull API did not confirm. Every step reads the
// spool objects in one order, so a rerun of an interrupted run finds the same.

/** What became of one pushed event. */
enum Seen {
  /** Not (yet) among the pulled events. */
  Unseen = 0,
  /** Pulled with the same bytes. */
  Confirmed = 1,
  /** Pulled with other bytes: compared again as parsed JSON once the export is done. */
  OtherBytes = 2,
  /** Older than the run's query: the archive's window holds it with the same content. */
  LateKnown = 3,
  /** Older than the run's query, and not in the archive's window. */
  LateUnknown = 4,
  /** After the run's end: carried to a new spool object for the next run. */
  After = 5,
  /** Older than the archive's start (its first run's `from`): outside what the archive holds. */
  Outside = 6,
}

/** Fates whose pushed copy must be read again: to keep it apart, compare its JSON, or carry it. */
const NEEDS_BYTES: ReadonlySet<number> = new Set([
  Seen.Unseen,
  Seen.OtherBytes,
  Seen.LateUnknown,
  Seen.After,
]);

/** The counts of the manifest's `push` member, as {@link PushReconciler.keepApart} adds them up. */
type PushCounts = Pick<
  PushReconcile,
  'pushed' | 'confirmed' | 'unconfirmed' | 'differing' | 'late' | 'outside'
>;

/**
 * Adds one pushed event's fate (not {@link Seen.After}: carried, not counted) to `counts`;
 * `parsedSame`: pulled with other bytes but the same JSON. True when its copy is kept apart.
 */
function tally(counts: PushCounts, fate: Seen, parsedSame: boolean): boolean {
  if (fate === Seen.Outside) {
    counts.outside += 1;
    return false;
  }
  counts.pushed += 1;
  if (fate === Seen.LateKnown || fate === Seen.LateUnknown) counts.late += 1;
  if (fate === Seen.Confirmed || fate === Seen.LateKnown || parsedSame) {
    counts.confirmed += 1;
    return false;
  }
  if (fate === Seen.OtherBytes) counts.differing += 1;
  else counts.unconfirmed += 1;
  return true;
}

/** The content key of an event's JSON as parsed and written again (spacing and escapes aside). */
function parsedKey(line: Uint8Array | string): number {
  const text = typeof line === 'string' ? line : Buffer.from(line).toString('utf8');
  return contentKey(JSON.stringify(JSON.parse(text)));
}

/** Columns that grow: no object per pushed event (a million take some 17 MB). */
class Columns {
  keys = new Float64Array(1024);
  raw = new Uint32Array(1024);
  seen = new Uint8Array(1024);
  length = 0;

  push(key: number, raw: number, seen: Seen): void {
    if (this.length === this.keys.length) {
      const size = this.length * 2;
      const keys = new Float64Array(size);
      keys.set(this.keys);
      const raws = new Uint32Array(size);
      raws.set(this.raw);
      const seens = new Uint8Array(size);
      seens.set(this.seen);
      Object.assign(this, { keys, raw: raws, seen: seens });
    }
    this.keys[this.length] = key;
    this.raw[this.length] = raw;
    this.seen[this.length] = seen;
    this.length += 1;
  }
}

/**
 * The spool objects a run meets (every one whose oldest event is not after the run's end) and
 * what the run's pulled events say of each pushed event. Made by {@link openPushReconcile}; the
 * run's writer calls {@link see} for each pulled event of its query range, then
 * {@link keepApart} once the export is done, and the run calls {@link retire} once its manifest
 * and state are written.
 */
export class PushReconciler {
  private readonly columns = new Columns();
  /** The first column of each id key; the others of the same key follow through `next`. */
  private readonly heads = new IdTable();
  /** The next column of the same id key, or -1. */
  private next = new Int32Array(0);
  /** The parsed-JSON key of the pulled copy of each pushed event pulled with other bytes. */
  private readonly pulledParsed = new Map<number, number>();
  private fetched = 0;

  private constructor(
    private readonly store: ArchiveStore,
    private readonly plan: PendingRun,
    readonly objects: readonly SpoolObject[],
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** The spool objects the run meets, read once into columns; undefined when there are none. */
  static async open(
    store: ArchiveStore,
    plan: PendingRun,
    known: KnownEvents,
    start: string,
    signal?: AbortSignal,
  ): Promise<PushReconciler | undefined> {
    const toMs = Date.parse(plan.to);
    const fromMs = Date.parse(plan.queryFrom);
    const startMs = Date.parse(start);
    const objects = (await listSpool(store, signal)).filter((object) => object.fromMs <= toMs);
    if (objects.length === 0) return undefined;
    const reconciler = new PushReconciler(store, plan, objects, signal);
    const { columns } = reconciler;
    for (const object of objects) {
      for await (const event of spoolEvents(store, object, signal)) {
        const key = idKey(event.id);
        const raw = contentKey(event.bytes);
        let seen = Seen.Unseen;
        if (event.occ > toMs) seen = Seen.After;
        else if (event.occ < startMs) seen = Seen.Outside;
        else if (event.occ < fromMs) {
          const archived = known.content(key);
          seen = archived === raw || archived === 0 ? Seen.LateKnown : Seen.LateUnknown;
        }
        columns.push(key, raw, seen);
      }
    }
    const { heads } = reconciler;
    const next = new Int32Array(columns.length).fill(-1);
    for (let i = 0; i < columns.length; i++) {
      const first = heads.firstOrAdd(columns.keys[i] as number, i);
      if (first === undefined) continue;
      next[i] = next[first] as number;
      next[first] = i;
    }
    reconciler.next = next;
    return reconciler;
  }

  /**
   * One pulled event of the run's query range, by its keys and line; `written`: the run writes it
   * (no earlier run archived it), so it counts as fetched when no push delivered it.
   */
  see(key: number, content: number, line: Uint8Array, written: boolean): void {
    const { raw, seen } = this.columns;
    let found = false;
    for (let i = this.heads.get(key) ?? -1; i !== -1; i = this.next[i] as number) {
      if (seen[i] !== Seen.Unseen) {
        found ||= seen[i] === Seen.Confirmed || seen[i] === Seen.OtherBytes;
        continue;
      }
      found = true;
      if (raw[i] === content) seen[i] = Seen.Confirmed;
      else {
        seen[i] = Seen.OtherBytes;
        this.pulledParsed.set(i, parsedKey(line));
      }
    }
    if (written && !found) this.fetched += 1;
  }

  /**
   * Once the export is done: every pushed event the pull API did not confirm goes to `keep` (the
   * run's conflicts file), the events after the run's end go to new spool objects (written now,
   * before the manifest names the read objects for removal), and the counts for the manifest.
   */
  async keepApart(keep: (line: Buffer) => Promise<void>): Promise<PushReconcile> {
    const { seen } = this.columns;
    const counts = { pushed: 0, confirmed: 0, unconfirmed: 0, differing: 0, late: 0, outside: 0 };
    const carried: string[] = [];
    let keptFrom: number | null = null;
    const done = () => ({
      ...counts,
      fetched: this.fetched,
      keptFrom: keptFrom === null ? null : new Date(keptFrom).toISOString(),
      objects: this.objects.map((o) => o.name),
      carried,
    });
    // Most runs confirm every pushed event: then the objects need not be read again.
    if (seen.subarray(0, this.columns.length).every((fate) => !NEEDS_BYTES.has(fate))) {
      for (const fate of seen.subarray(0, this.columns.length)) tally(counts, fate, false);
      return done();
    }
    let i = 0;
    for (const object of this.objects) {
      const after: SpoolEvent[] = [];
      for await (const event of spoolEvents(this.store, object, this.signal)) {
        if (i >= this.columns.length) throw this.changed(object);
        const fate = seen[i] as Seen;
        if (fate === Seen.After)
          after.push({ line: event.bytes.toString('utf8'), id: event.id, occ: event.occ });
        else {
          const parsedSame = fate === Seen.OtherBytes && parsedKey(event.bytes) === this.pulledParsed.get(i);
          if (tally(counts, fate, parsedSame)) {
            await keep(event.bytes);
            if (keptFrom === null || event.occ < keptFrom) keptFrom = event.occ;
          }
        }
        i += 1;
      }
      if (after.length > 0) carried.push((await writeSpoolObject(this.store, after)).name);
    }
    if (i !== this.columns.length) throw this.changed(this.objects[this.objects.length - 1] as SpoolObject);
    return done();
  }

  /** Removes the spool objects the run read (their events are in the run's files now, or carried). */
  async retire(): Promise<void> {
    for (const object of this.objects) await this.store.remove(object.name);
  }

  private changed(object: SpoolObject): SvcError {
    return new SvcError(
      `${this.store.describe(object.name)} changed while run ${this.plan.run} read it (a spool object is written once); run the sync again`,
      'io',
    );
  }
}

/**
 * Removes the spool objects the head manifest names as read (`push.objects`) that are still
 * there: a run killed after its manifest, before it removed them.
 */
export async function retireLeftovers(store: ArchiveStore, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const there = new Set((await listSpool(store)).map((object) => object.name));
  for (const name of names) if (there.has(name)) await store.remove(name);
}
