/** Segments of an {@link IdTable}: chosen by the top 6 of an id key's 48 bits. */
const SEGMENTS = 64;
/** Slots of a segment when it is made. */
const FIRST_LENGTH = 16;
/** A segment grows (by half) once more than 3/4 of its slots are used. */
const MAX_LOAD = 0.75;
const LOW = 2 ** 32;

/** One open-addressing table of a segment: 10 bytes a slot. */
class Segment {
  /** The key's bits 32 to 41, plus one: 0 marks an empty slot. */
  tags = new Uint16Array(FIRST_LENGTH);
  /** The key's low 32 bits. */
  lows = new Uint32Array(FIRST_LENGTH);
  values = new Uint32Array(FIRST_LENGTH);
  size = 0;

  /** The slot that holds the key (`tag`, `low`), or the empty one where it goes. */
  slotOf(tag: number, low: number): number {
    const { tags, lows } = this;
    const length = tags.length;
    let slot = low % length;
    for (;;) {
      const there = tags[slot];
      if (there === 0 || (there === tag && lows[slot] === low)) return slot;
      slot = slot + 1 === length ? 0 : slot + 1;
    }
  }

  grow(): void {
    const { tags, lows, values } = this;
    const length = Math.ceil(tags.length * 1.5);
    this.tags = new Uint16Array(length);
    this.lows = new Uint32Array(length);
    this.values = new Uint32Array(length);
    for (let k = 0; k < tags.length; k++) {
      const tag = tags[k] as number;
      if (tag === 0) continue;
      const slot = this.slotOf(tag, lows[k] as number);
      this.tags[slot] = tag;
      this.lows[slot] = lows[k] as number;
      this.values[slot] = values[k] as number;
    }
  }
}

/**
 * A 32-bit value (a content key) per event id key (`window.ts`' {@link idKey}: a whole number
 * below 2^48), with no object per event: 64 segments (by the key's top 6 bits) of open
 * addressing, 10 bytes a slot, each grown by half once 3/4 full, so a million ids take some 17 to
 * 25 MB and a growth holds one segment twice, not the whole table. Id keys are sha256 bits
 * already, so their low bits spread well. A sync run keeps the first content of each id in one; a
 * push receiver, the ids it has spooled.
 */
export class IdTable {
  private readonly segments: Array<Segment | undefined> = new Array(SEGMENTS);
  /** Ids held. */
  size = 0;

  /** The value stored for `id`, or undefined when it holds none. */
  get(id: number): number | undefined {
    const high = Math.floor(id / LOW);
    const segment = this.segments[high >>> 10];
    if (segment === undefined) return undefined;
    const slot = segment.slotOf((high & 1023) + 1, id >>> 0);
    return segment.tags[slot] === 0 ? undefined : segment.values[slot];
  }

  /** The value stored for `id`; or stores `value` for it and gives undefined. */
  firstOrAdd(id: number, value: number): number | undefined {
    const high = Math.floor(id / LOW);
    const index = high >>> 10;
    let segment = this.segments[index];
    if (segment === undefined) {
      segment = new Segment();
      this.segments[index] = segment;
    }
    const tag = (high & 1023) + 1;
    const slot = segment.slotOf(tag, id >>> 0);
    if (segment.tags[slot] !== 0) return segment.values[slot];
    segment.tags[slot] = tag;
    segment.lows[slot] = id >>> 0;
    segment.values[slot] = value;
    segment.size += 1;
    this.size += 1;
    if (segment.size > segment.tags.length * MAX_LOAD) segment.grow();
    return undefined;
  }
}
