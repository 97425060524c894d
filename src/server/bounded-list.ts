/**
 * The last `max` items pushed, oldest first: the reference server's request log and console event
 * history. `push` is O(1) amortized: an item that falls out is only skipped, and the list is
 * compacted once the skipped items are as many as `max` (each item is copied at most once),
 * instead of shifting the whole list on every push once it is full.
 */
export class BoundedList<T> {
  private items: T[] = [];
  private start = 0;

  /** @param max how many items are kept; at least 1. */
  constructor(readonly max: number) {}

  /** Adds `item`, dropping the oldest one when `max` are kept already. */
  push(item: T): void {
    this.items.push(item);
    if (this.items.length - this.start <= this.max) return;
    this.start += 1;
    if (this.start >= this.max) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  /** How many items are kept. */
  get length(): number {
    return this.items.length - this.start;
  }

  /** The oldest kept item. */
  get oldest(): T | undefined {
    return this.items[this.start];
  }

  /** A copy of the kept items, oldest first. */
  toArray(): T[] {
    return this.items.slice(this.start);
  }

  /** Forgets every item. */
  clear(): void {
    this.items = [];
    this.start = 0;
  }
}
