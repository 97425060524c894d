import type { KnownEvents } from '../audit-archive/window.js';

/** What becomes of each event of a run's export. */
export enum Fate {
  Write = 0,
  Already = 1,
  OutOfRange = 2,
  Conflict = 3,
}

/** Marks an empty slot of {@link FirstContents}: id keys are whole numbers >= 0. */
const EMPTY = -1;

/**
 * The content key of the first event of each id key of a run, in an open-addressing table of two
 * typed arrays (16 bytes a slot, at most half of them used): no object per event, and a run of a
 * million events holds some 32 MB. Id keys are sha256 bits already, so their low bits spread well.
 */
class FirstContents {
  private ids = new Float64Array(1 << 12).fill(EMPTY);
  private contents = new Uint32Array(1 << 12);
  private size = 0;

  /** The content key stored for `id`, or stores `content` for it and gives undefined. */
  firstOrAdd(id: number, content: number): number | undefined {
    const slot = this.slotOf(id);
    if (this.ids[slot] === id) return this.contents[slot];
    this.ids[slot] = id;
    this.contents[slot] = content;
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
    const { ids, contents } = this;
    this.ids = new Float64Array(ids.length * 2).fill(EMPTY);
    this.contents = new Uint32Array(ids.length * 2);
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (id === EMPTY) continue;
      const slot = this.slotOf(id);
      this.ids[slot] = id;
      this.contents[slot] = contents[k] as number;
    }
  }
}

/**
 * Each event's fate, in export order. Of several events in range with one id the first is the
 * event and a later one a repeat (same content) or a conflict (other content); an id the archive
 * holds is archived already, or a conflict when its content differs.
 */
export class RunFates {
  private readonly firsts = new FirstContents();

  constructor(private readonly known: KnownEvents) {}

  /** The fate of the next event in range, by its id key and content key. */
  next(id: number, content: number): Fate {
    const first = this.firsts.firstOrAdd(id, content);
    if (first !== undefined) return first === content ? Fate.Already : Fate.Conflict;
    const archived = this.known.content(id);
    if (archived === undefined) return Fate.Write;
    // Content key 0: an event of an older state, whose content is not known.
    return archived === 0 || archived === content ? Fate.Already : Fate.Conflict;
  }
}
