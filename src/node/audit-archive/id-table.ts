/** Marks an empty slot of {@link IdTable}: id keys are whole numbers >= 0. */
const EMPTY = -1;

/**
 * A 32-bit value (a content key) per event id key (`window.ts`' {@link idKey}), in an
 * open-addressing table of two typed arrays (12 bytes a slot, at most half of them used): no object
 * per event, so a million ids take some 24 to 48 MB. Id keys are sha256 bits already, so their low
 * bits spread well. A sync run keeps the first content of each id in one; a push receiver, the ids
 * it has spooled.
 */
export class IdTable {
  private ids = new Float64Array(1 << 12).fill(EMPTY);
  private values = new Uint32Array(1 << 12);
  /** Ids held. */
  size = 0;

  /** The value stored for `id`, or undefined when it holds none. */
  get(id: number): number | undefined {
    const slot = this.slotOf(id);
    return this.ids[slot] === id ? this.values[slot] : undefined;
  }

  /** The value stored for `id`; or stores `value` for it and gives undefined. */
  firstOrAdd(id: number, value: number): number | undefined {
    const slot = this.slotOf(id);
    if (this.ids[slot] === id) return this.values[slot];
    this.ids[slot] = id;
    this.values[slot] = value;
    this.size += 1;
    if (this.size * 2 > this.ids.length) this.grow();
    return undefined;
  }

  /** The slot that holds `id`, or the empty one where it goes. */
  private slotOf(id: number): number {
    const mask = this.ids.length - 1;
    // `id >>> 0`: the low 32 bits of the 48-bit key.
    let slot = (id >>> 0) & mask;
    for (;;) {
      const there = this.ids[slot];
      if (there === id || there === EMPTY) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const { ids, values } = this;
    this.ids = new Float64Array(ids.length * 2).fill(EMPTY);
    this.values = new Uint32Array(ids.length * 2);
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (id === EMPTY) continue;
      const slot = this.slotOf(id);
      this.ids[slot] = id;
      this.values[slot] = values[k] as number;
    }
  }
}
