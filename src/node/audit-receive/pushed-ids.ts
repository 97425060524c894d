import { IdTable } from '../audit-archive/id-table.js';
import { contentKey, idKey, type KnownEvents } from '../audit-archive/window.js';
import type { SpoolEvent } from '../audit-push/spool.js';

/** An event of a push, with its keys. */
export interface KeyedEvent extends SpoolEvent {
  key: number;
  content: number;
}

/** The keys of a pushed event: 48 bits of the sha256 of its id, 32 of its line's. */
export const keyed = (event: SpoolEvent): KeyedEvent => ({
  ...event,
  key: idKey(event.id),
  content: contentKey(event.line),
});

/** A write of new events in flight: the events it holds, and whether it ended written. */
interface PendingWrite {
  content: number;
  done: Promise<boolean>;
}

/**
 * Content keys by id key: the first content of each id in an {@link IdTable} (no object per
 * event), any other content of the same id (an event changed under its id: rare) in a map beside.
 */
class ContentTable {
  private readonly first = new IdTable();
  private readonly others = new Map<number, Set<number>>();

  has(key: number, content: number): boolean {
    return this.first.get(key) === content || this.others.get(key)?.has(content) === true;
  }

  add(key: number, content: number): void {
    const first = this.first.firstOrAdd(key, content);
    if (first === undefined || first === content) return;
    const others = this.others.get(key);
    if (others) others.add(content);
    else this.others.set(key, new Set([content]));
  }

  /** Ids held. */
  get size(): number {
    return this.first.size;
  }
}

/** What {@link PushedIds.claim} found: the events to write (claimed), and the duplicates left out. */
export interface Claim {
  fresh: KeyedEvent[];
  duplicates: number;
  /** Marks the claimed events written (true) or not (false): only then may another push take them. */
  settle(written: boolean): void;
}

/**
 * The events a receiver must not write again: those its archive's spool holds (`spooled`), those
 * the last sync archived in its overlap window (`archived`), and those a write in flight is about
 * to hold. A push whose event is in flight waits for that write: a duplicate is answered 2xx only
 * once the first copy is durable, and written after all when that write failed.
 */
export class PushedIds {
  private spooled = new ContentTable();
  private readonly pending = new Map<number, PendingWrite[]>();

  constructor(private archived: KnownEvents) {}

  /** Events held (spooled or in the sync's window) with this id key and content key. */
  private held(event: KeyedEvent): boolean {
    if (this.spooled.has(event.key, event.content)) return true;
    const archived = this.archived.content(event.key);
    return archived === event.content || archived === 0;
  }

  /** Records spooled events (read back from the spool, or written by this receiver). */
  add(key: number, content: number): void {
    this.spooled.add(key, content);
  }

  /** Starts over from what the spool and the archive hold now (after a sync retired spool objects). */
  reset(archived: KnownEvents): void {
    this.spooled = new ContentTable();
    this.archived = archived;
  }

  /** Ids spooled. */
  get size(): number {
    return this.spooled.size;
  }

  /**
   * The events of `events` to write: neither held nor repeated in the batch. Those another write
   * holds in flight are waited for, then looked at again. The caller must `settle` the claim.
   */
  async claim(events: readonly KeyedEvent[]): Promise<Claim> {
    for (;;) {
      const waits: Promise<boolean>[] = [];
      const fresh: KeyedEvent[] = [];
      const inBatch = new ContentTable();
      let duplicates = 0;
      for (const event of events) {
        if (this.held(event) || inBatch.has(event.key, event.content)) {
          duplicates += 1;
          continue;
        }
        const inFlight = this.pending.get(event.key)?.find((write) => write.content === event.content);
        if (inFlight) {
          waits.push(inFlight.done);
          continue;
        }
        inBatch.add(event.key, event.content);
        fresh.push(event);
      }
      if (waits.length > 0) {
        await Promise.all(waits);
        continue;
      }
      return this.reserve(fresh, duplicates);
    }
  }

  private reserve(fresh: KeyedEvent[], duplicates: number): Claim {
    let settle: (written: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    // Only the keys are kept for settle: the events (their lines) may go once the caller made its bytes.
    const keys = Float64Array.from(fresh, (event) => event.key);
    const contents = Uint32Array.from(fresh, (event) => event.content);
    for (const [i, key] of keys.entries()) {
      const write = { content: contents[i] as number, done };
      const writes = this.pending.get(key);
      if (writes) writes.push(write);
      else this.pending.set(key, [write]);
    }
    return {
      fresh,
      duplicates,
      settle: (written) => {
        for (const [i, key] of keys.entries()) {
          const writes = this.pending.get(key)?.filter((write) => write.done !== done);
          if (writes?.length) this.pending.set(key, writes);
          else this.pending.delete(key);
          if (written) this.add(key, contents[i] as number);
        }
        settle(written);
      },
    };
  }
}
