import { hash } from 'node:crypto';

/**
 * The archived events of the overlap window, kept compactly: 14 bytes per event, sorted by id
 * key, stored base64 in the sync state (1,000,000 events: about 18.7 MB of state).
 * Each record: the event's `occurredAt` as ms after the window's start (uint32, so a window spans
 * at most {@link MAX_WINDOW_MS}), the first 6 bytes of the sha256 of its id (the id key), and the
 * first 4 bytes of the sha256 of its line (the content key). Two ids share a key with a chance of
 * about 1 in 2^48 per pair; such a meeting is reported as a conflict, never dropped silently.
 */
export const RECORD_BYTES = 14;
/** The longest window the records can span: 2^32 - 1 ms (about 49.7 days). */
export const MAX_WINDOW_MS = 0xffff_ffff;

/** The id key of an event: 48 bits of the sha256 of its id, as a number. */
export const idKey = (id: string): number => hash('sha256', id, 'buffer').readUIntBE(0, 6);

/** The content key of an event line (text, or its UTF-8 bytes: the same key): 32 bits of the sha256 of its bytes. */
export const contentKey = (line: string | Uint8Array): number =>
  hash('sha256', line, 'buffer').readUInt32BE(0);

/** One event of the window. */
export interface WindowEvent {
  occ: number;
  id: number;
  content: number;
}

/** Events the archive holds, looked up by id key. */
export interface KnownEvents {
  /** The content key of the event with this id key (0: content not known), or undefined when not held. */
  content(id: number): number | undefined;
}

/** The window's events, sorted by id key: lookup by binary search, no per-event object. */
export class EventWindow implements KnownEvents {
  private constructor(
    /** Start of the window, ms: `occurredAt` offsets count from here. */
    readonly startMs: number,
    private readonly records: Buffer,
  ) {}

  /** A window over records already sorted by id key. */
  static fromRecords(startMs: number, records: Buffer): EventWindow {
    return new EventWindow(startMs, records);
  }

  /** The window stored in the state (`base64` of the records), starting at `startMs`. */
  static decode(startMs: number, base64: string): EventWindow {
    const records = Buffer.from(base64, 'base64');
    return new EventWindow(startMs, records.subarray(0, records.length - (records.length % RECORD_BYTES)));
  }

  /** A window of these events (those before `startMs` are left out), sorted by id key. */
  static of(startMs: number, events: Iterable<WindowEvent>): EventWindow {
    const builder = new WindowBuilder();
    for (const event of events) builder.push(event.occ, event.id, event.content);
    return builder.build(startMs);
  }

  get size(): number {
    return this.records.length / RECORD_BYTES;
  }

  /** The records as stored in the state. */
  encode(): string {
    return this.records.toString('base64');
  }

  at(index: number): WindowEvent {
    const at = index * RECORD_BYTES;
    return {
      occ: this.startMs + this.records.readUInt32BE(at),
      id: this.records.readUIntBE(at + 4, 6),
      content: this.records.readUInt32BE(at + 10),
    };
  }

  /** The content key of the event with this id key, or undefined when the window lacks it. */
  content(id: number): number | undefined {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.records.readUIntBE(mid * RECORD_BYTES + 4, 6) < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < this.size && this.records.readUIntBE(lo * RECORD_BYTES + 4, 6) === id)
      return this.records.readUInt32BE(lo * RECORD_BYTES + 10);
    return undefined;
  }

  /** Every event, in id-key order. */
  *events(): Generator<WindowEvent> {
    for (let i = 0; i < this.size; i++) yield this.at(i);
  }

  /** Adds every event of this window to `builder`, without an object per event. */
  addTo(builder: WindowBuilder): void {
    const { records } = this;
    for (let at = 0; at < records.length; at += RECORD_BYTES) {
      builder.push(
        this.startMs + records.readUInt32BE(at),
        records.readUInt16BE(at + 4) * 2 ** 32 + records.readUInt32BE(at + 6),
        records.readUInt32BE(at + 10),
      );
    }
  }
}

/** Collects events in columns (no object per event) and sorts them into an {@link EventWindow}. */
export class WindowBuilder {
  private occ = new Float64Array(1024);
  private id = new Float64Array(1024);
  private content = new Uint32Array(1024);
  private length = 0;

  push(occ: number, id: number, content: number): void {
    if (this.length === this.occ.length) {
      const grow = <T extends Float64Array | Uint32Array>(from: T, to: T): T => {
        to.set(from);
        return to;
      };
      const size = this.length * 2;
      this.occ = grow(this.occ, new Float64Array(size));
      this.id = grow(this.id, new Float64Array(size));
      this.content = grow(this.content, new Uint32Array(size));
    }
    this.occ[this.length] = occ;
    this.id[this.length] = id;
    this.content[this.length] = content;
    this.length += 1;
  }

  /** The window from `startMs` on (earlier events, and those past {@link MAX_WINDOW_MS}, left out). */
  build(startMs: number): EventWindow {
    const { occ, id, content } = this;
    const kept: number[] = [];
    for (let i = 0; i < this.length; i++) {
      const offset = (occ[i] as number) - startMs;
      if (offset >= 0 && offset <= MAX_WINDOW_MS) kept.push(i);
    }
    const order = Uint32Array.from(kept).sort(
      (a, b) => (id[a] as number) - (id[b] as number) || (occ[a] as number) - (occ[b] as number),
    );
    const records = Buffer.alloc(order.length * RECORD_BYTES);
    let at = 0;
    for (const i of order) {
      const key = id[i] as number;
      records.writeUInt32BE((occ[i] as number) - startMs, at);
      records.writeUInt16BE(Math.floor(key / 2 ** 32), at + 4);
      records.writeUInt32BE(key % 2 ** 32, at + 6);
      records.writeUInt32BE(content[i] as number, at + 10);
      at += RECORD_BYTES;
    }
    return EventWindow.fromRecords(startMs, records);
  }
}
