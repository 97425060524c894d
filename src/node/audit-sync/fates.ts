import { IdTable } from '../audit-archive/id-table.js';
import type { KnownEvents } from '../audit-archive/window.js';

/** What becomes of each event of a run's export. */
export enum Fate {
  Write = 0,
  Already = 1,
  OutOfRange = 2,
  Conflict = 3,
}

/**
 * Each event's fate, in export order. Of several events in range with one id the first is the
 * event and a later one a repeat (same content) or a conflict (other content); an id the archive
 * holds is archived already, or a conflict when its content differs.
 */
export class RunFates {
  private readonly firsts = new IdTable();

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
