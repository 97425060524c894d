/** Row value of a slot never used. */
const EMPTY = 0;
/** Row value of a slot whose entry was removed (probing goes on past it). */
const REMOVED = 0xffffffff;

/** MurmurHash3's finalizer: spreads every bit of `h` over the low bits the table uses. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Two 32-bit hashes of a string (FNV-1a with different offset bases, then mixed): a 64-bit key. */
function hashPair(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [mix(a), mix(b ^ 0x9e3779b9)];
}

/**
 * Which row a validation request id belongs to, for the rows still waiting: an open-addressing
 * table of 64-bit hashes of the ids in typed arrays (12 bytes a slot, at most half full), so a
 * million waiting rows cost ~24 MB instead of a million strings in a `Map`. Two ids sharing a
 * 64-bit hash in one run (odds about 1 in 10^7 at a million rows) would share a slot; the second
 * row is then found by reconciliation.
 */
export class RequestIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private rows: Uint32Array;
  private used = 0;
  private live = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Uint32Array(size);
  }

  /** Entries held. */
  get size(): number {
    return this.live;
  }

  private slotOf(hi: number, lo: number): number {
    const mask = this.rows.length - 1;
    let slot = hi & mask;
    for (;;) {
      const row = this.rows[slot] as number;
      if (row === EMPTY) return slot;
      if (row !== REMOVED && this.hi[slot] === hi && this.lo[slot] === lo) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** Maps `id` to `row` (a positive row number). */
  set(id: string, row: number): void {
    if ((this.used + 1) * 2 > this.rows.length) this.rehash();
    const [hi, lo] = hashPair(id);
    const slot = this.slotOf(hi, lo);
    if (this.rows[slot] === EMPTY) {
      this.used += 1;
      this.live += 1;
    }
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.rows[slot] = row;
  }

  /** The row of `id`, if held. */
  get(id: string): number | undefined {
    const [hi, lo] = hashPair(id);
    const row = this.rows[this.slotOf(hi, lo)] as number;
    return row === EMPTY ? undefined : row;
  }

  /** Removes `id`; true when it was held. */
  delete(id: string): boolean {
    const [hi, lo] = hashPair(id);
    const slot = this.slotOf(hi, lo);
    if (this.rows[slot] === EMPTY) return false;
    this.rows[slot] = REMOVED;
    this.live -= 1;
    return true;
  }

  /** Rebuilds the table without removed slots, twice as large when it is over a quarter full. */
  private rehash(): void {
    const { hi, lo, rows } = this;
    const size = this.live * 4 > rows.length ? rows.length * 2 : rows.length;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.rows = new Uint32Array(size);
    this.used = this.live;
    for (let slot = 0; slot < rows.length; slot++) {
      const row = rows[slot] as number;
      if (row === EMPTY || row === REMOVED) continue;
      const to = this.slotOf(hi[slot] as number, lo[slot] as number);
      this.hi[to] = hi[slot] as number;
      this.lo[to] = lo[slot] as number;
      this.rows[to] = row;
    }
  }
}
