/**
 * The last `max` items pushed, oldest first: the reference server's request log and console event
 * history. Optionally bounded in weight too (the console history in bytes): each push gives the
 * item's weight, and the oldest items are dropped while the total is over `maxWeight` (the newest
 * item is always kept). `push` is O(1) amortized: an item that falls out is only skipped, and the
 * list is compacted once the skipped items are as many as `max` (each item is copied at most
 * once), instead of shifting the whole list on every push once it is full.
 */
export class BoundedList<T> {
  private items: T[] = [];
  private weights: number[] = [];
  private start = 0;
  private total = 0;

  /**
   * @param max how many items are kept; at least 1.
   * @param maxWeight the most their weights may add up to; default no bound.
   */
  constructor(
    readonly max: number,
    readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  /** Adds `item` of `weight` (default 0), dropping the oldest ones past `max` or `maxWeight`. */
  push(item: T, weight = 0): void {
    this.items.push(item);
    this.weights.push(weight);
    this.total += weight;
    while (this.length > this.max || (this.total > this.maxWeight && this.length > 1)) {
      this.total -= this.weights[this.start] ?? 0;
      this.start += 1;
    }
    if (this.start >= this.max) {
      this.items = this.items.slice(this.start);
      this.weights = this.weights.slice(this.start);
      this.start = 0;
    }
  }

  /** How many items are kept. */
  get length(): number {
    return this.items.length - this.start;
  }

  /** What the kept items weigh together. */
  get weight(): number {
    return this.total;
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
    this.weights = [];
    this.start = 0;
    this.total = 0;
  }
}
