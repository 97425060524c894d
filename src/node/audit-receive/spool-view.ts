import { readSyncState, stateWindow } from '../audit-archive/state.js';
import { contentKey, EventWindow, idKey, type KnownEvents } from '../audit-archive/window.js';
import { listSpool, type SpoolObject, spoolEvents } from '../audit-push/spool.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import type { PushedIds } from './pushed-ids.js';

/** How often the spool is listed again (for the backlog, and objects other receivers wrote), at most: 5 s. */
const REFRESH_MS = 5000;

/** How often, at most, the ids are rebuilt after a sync retired spool objects: 10 minutes. */
const REBUILD_MS = 10 * 60_000;

/** The events the archive's last sync holds in its overlap window; none when it has no (readable) state. */
async function archivedWindow(store: ArchiveStore): Promise<KnownEvents> {
  const state = await readSyncState(store).catch(() => undefined);
  return state ? stateWindow(state) : EventWindow.of(0, []);
}

/**
 * The receiver's view of its archive's spool: which objects wait for a sync (the backlog), and
 * the ids they hold, kept in `ids`. Listed again at most every 5 s, when a push comes or the
 * backlog is asked: an object gone was retired by a sync, an object new was written by another
 * receiver of the same archive (its ids are added, so two receivers do not spool one event
 * twice). After a sync
 * retired objects, the ids start over from the spool and the sync's window (at most every 10
 * minutes), so a receiver that runs for months holds the ids of its backlog, not of every event.
 */
export class SpoolView {
  private readonly objects = new Map<string, number>();
  private listedAt = Number.NEGATIVE_INFINITY;
  private rebuiltAt: number;
  /** Objects went since the last rebuild (remembered until the rebuild is due). */
  private retired = false;
  private refreshing: Promise<void> | undefined;

  private constructor(
    private readonly store: ArchiveStore,
    private readonly ids: PushedIds,
    private readonly now: () => number,
  ) {
    this.rebuiltAt = now();
  }

  /** Reads the spool and the sync's window into `ids`. */
  static async open(store: ArchiveStore, ids: (window: KnownEvents) => PushedIds, now: () => number) {
    const pushed = ids(await archivedWindow(store));
    const view = new SpoolView(store, pushed, now);
    for (const object of await listSpool(store)) await view.read(object);
    view.listedAt = now();
    return { view, ids: pushed };
  }

  /** Records an object this receiver wrote. */
  wrote(name: string, events: number): void {
    this.objects.set(name, events);
  }

  /**
   * Lists the spool again when the last listing is 5 s old or more. Called on the push path as
   * well as for the health route, so a receiver nobody asks for its health still sees the objects
   * other receivers wrote before it claims a push's events, and lets go of the ids a sync retired.
   */
  async refreshIfDue(): Promise<void> {
    if (this.now() - this.listedAt < REFRESH_MS) return;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  /** Spool objects and their events, from a listing at most 5 s old. */
  async backlog(): Promise<{ objects: number; events: number }> {
    await this.refreshIfDue();
    let events = 0;
    for (const count of this.objects.values()) events += count;
    return { objects: this.objects.size, events };
  }

  private async refresh(): Promise<void> {
    let listed = await listSpool(this.store);
    this.listedAt = this.now();
    const present = new Set(listed.map((object) => object.name));
    for (const name of [...this.objects.keys()]) {
      if (present.has(name)) continue;
      this.objects.delete(name);
      this.retired = true;
    }
    if (this.retired && this.now() - this.rebuiltAt >= REBUILD_MS) {
      this.rebuiltAt = this.now();
      this.retired = false;
      this.ids.reset(await archivedWindow(this.store));
      this.objects.clear();
      // Listed again after the reset: a write that settled between the first listing and the
      // reset is in this listing, one that settles later adds its ids to the new table.
      listed = await listSpool(this.store);
    }
    for (const object of listed) if (!this.objects.has(object.name)) await this.read(object);
  }

  /** Adds an object's ids and counts its events; one that went meanwhile is let be. */
  private async read(object: SpoolObject): Promise<void> {
    let events = 0;
    try {
      for await (const event of spoolEvents(this.store, object)) {
        this.ids.add(idKey(event.id), contentKey(event.bytes));
        events += 1;
      }
    } catch (error) {
      if ((await listSpool(this.store)).some((there) => there.name === object.name)) throw error;
      return;
    }
    this.objects.set(object.name, events);
  }
}
