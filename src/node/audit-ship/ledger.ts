import type { ArchiveStore } from '../audit-store/archive-store.js';
import { DurableOutput } from '../fs/output-file.js';
import type { Entry } from './entries.js';
import type { ShipCounts } from './options.js';
import { docText } from './sender.js';
import { type ShipState, writeShipState } from './state.js';

/**
 * What a ship has done, kept in the archive's order: the entries on their way (the window), the
 * counts, the dead-letter file and the checkpoint. An outcome counts, and a dead letter is written,
 * only once every entry before it has its outcome ({@link commit}), so the checkpoint names a
 * prefix of each data file and the dead-letter file holds exactly the events it counts.
 */
export class ShipLedger {
  /** Entries read and not yet committed, in the archive's order. */
  private readonly window: Entry[] = [];
  /** Something was committed since the last checkpoint: a run that read nothing writes none (a folder that is no archive keeps no checkpoint). */
  private dirty = false;
  /** What this run did. */
  readonly thisRun: ShipCounts & { requests: number; retried: number } = {
    created: 0,
    alreadyThere: 0,
    deadLettered: 0,
    requests: 0,
    retried: 0,
  };

  constructor(
    readonly state: ShipState,
    private readonly store: ArchiveStore,
    private readonly id: string,
    private readonly deadLetterPath: string,
    private deadLetter: DurableOutput | undefined,
    /** Replace a dead-letter file that holds data (a restart). */
    private readonly replaceDeadLetter: boolean,
    private readonly now: () => number,
  ) {}

  /** Entries read and not committed. */
  get open(): number {
    return this.window.length;
  }

  /** The dead-letter file this run writes or went on with. */
  get deadLetterFile(): string | null {
    return this.deadLetter?.path ?? null;
  }

  /** Takes a new entry, in the archive's order. */
  add(entry: Entry): void {
    this.window.push(entry);
  }

  /** Counts (and dead-letters) the entries at the front that have their outcome. */
  async commit(): Promise<void> {
    let head = 0;
    while (head < this.window.length && (this.window[head] as Entry).outcome) {
      const entry = this.window[head] as Entry;
      const outcome = entry.outcome as NonNullable<Entry['outcome']>;
      if (outcome.kind === 'created') this.count('created');
      else if (outcome.kind === 'already') this.count('alreadyThere');
      else {
        this.deadLetter ??= await DurableOutput.open(this.deadLetterPath, undefined, {
          force: this.replaceDeadLetter,
        });
        await this.deadLetter.append(deadLine(entry, outcome));
        this.count('deadLettered');
      }
      const file = this.state.files[entry.file];
      if (file) file.done += 1;
      else this.state.files[entry.file] = { sha256: entry.sha256, done: 1 };
      head += 1;
    }
    if (head === 0) return;
    this.window.splice(0, head);
    this.dirty = true;
  }

  /** Makes the dead letters durable, then writes the checkpoint naming them. */
  async checkpoint(): Promise<void> {
    if (!this.dirty) return;
    if (this.deadLetter)
      this.state.deadLetter = { path: this.deadLetter.path, bytes: await this.deadLetter.sync() };
    this.state.updatedAt = new Date(this.now()).toISOString();
    await writeShipState(this.store, this.id, this.state);
    this.dirty = false;
  }

  async close(): Promise<void> {
    await this.deadLetter?.close().catch(() => {});
  }

  private count(key: keyof ShipCounts): void {
    this.state[key] += 1;
    this.thisRun[key] += 1;
  }
}

/** One dead-letter line: the event's id and time, the status and reason, the document as sent. */
function deadLine(entry: Entry, outcome: { status: number; reason: string }): string {
  return `{"id":${JSON.stringify(entry.doc.id)},"occurredAt":${JSON.stringify(entry.doc.occurredAt)},"status":${outcome.status},"reason":${JSON.stringify(outcome.reason)},"document":${docText(entry.doc)}}\n`;
}
