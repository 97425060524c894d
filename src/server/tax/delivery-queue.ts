/** A queued delivery as numbers: its id, its event's id, and what its payload is built from. */
export interface QueuedDelivery {
  seq: number;
  eventSeq: number;
  kind: number;
  ref: number;
}

/** Kinds of payload builders a queue can tell apart (`kind` is packed with `ref`). */
export const MAX_KINDS = 8;
const FIELDS = 3;
const MIN_CAPACITY = 1024;

/**
 * A FIFO of queued deliveries kept as numbers in one growing ring (24 bytes per delivery, no object
 * per entry), so a burst of a million events waits in about 24 MB instead of being dropped. The
 * ring shrinks back once it is empty.
 */
export class DeliveryQueue {
  private ring = new Float64Array(MIN_CAPACITY * FIELDS);
  private head = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  private get capacity(): number {
    return this.ring.length / FIELDS;
  }

  push(seq: number, eventSeq: number, kind: number, ref: number): void {
    if (this.count === this.capacity) this.resize(this.capacity * 2);
    const at = ((this.head + this.count) % this.capacity) * FIELDS;
    this.ring[at] = seq;
    this.ring[at + 1] = eventSeq;
    this.ring[at + 2] = ref * MAX_KINDS + kind;
    this.count += 1;
  }

  shift(): QueuedDelivery | undefined {
    if (this.count === 0) return undefined;
    const at = this.head * FIELDS;
    const packed = this.ring[at + 2] as number;
    const entry = {
      seq: this.ring[at] as number,
      eventSeq: this.ring[at + 1] as number,
      kind: packed % MAX_KINDS,
      ref: Math.floor(packed / MAX_KINDS),
    };
    this.head = (this.head + 1) % this.capacity;
    this.count -= 1;
    if (this.count === 0 && this.capacity > MIN_CAPACITY) this.clear();
    return entry;
  }

  clear(): void {
    this.ring = new Float64Array(MIN_CAPACITY * FIELDS);
    this.head = 0;
    this.count = 0;
  }

  private resize(capacity: number): void {
    const next = new Float64Array(capacity * FIELDS);
    for (let i = 0; i < this.count; i++) {
      const from = ((this.head + i) % this.capacity) * FIELDS;
      next.set(this.ring.subarray(from, from + FIELDS), i * FIELDS);
    }
    this.ring = next;
    this.head = 0;
  }
}
