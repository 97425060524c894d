import { formatEvent } from '../../audit/normalise/format.js';
import { CheckpointError } from '../../core/errors/error-classes.js';
import type { ArchiveMatch, ArchiveSearch } from '../audit-search/archive-search.js';
import type { ItemOutcome, ShipDoc } from './sender.js';
import type { ShipState } from './state.js';

/** One event of the range on its way: its document, its file, and what became of it. */
export interface Entry {
  doc: ShipDoc;
  file: string;
  sha256: string;
  /** Its outcome for good (created, already there, dead); none while it is to be sent (again). */
  outcome?: Exclude<ItemOutcome, { kind: 'retry' }>;
  /** When it was first refused for now (a 429, a 5xx), ms. */
  refusedSince?: number;
  lastReason?: string;
  retryAfterMs?: number | undefined;
}

/**
 * The events of a search as entries, in the archive's order, those an earlier run did (the first
 * `done` events of each file the checkpoint names) passed over; undefined once they are read.
 * A file the checkpoint names with another sha256 is a `CheckpointError`: the archive was rebuilt.
 */
export function entriesOf(
  search: ArchiveSearch,
  state: Pick<ShipState, 'files' | 'format' | 'keepOriginal'>,
  checkpointName: string,
): { next: () => Promise<Entry | undefined>; close: () => Promise<void> } {
  const seen = new Map<string, number>();
  const reader = search[Symbol.asyncIterator]();
  let exhausted = false;
  return {
    async next() {
      while (!exhausted) {
        const step = await reader.next();
        if (step.done) {
          exhausted = true;
          break;
        }
        const match = step.value;
        const count = (seen.get(match.file) ?? 0) + 1;
        seen.set(match.file, count);
        const done = state.files[match.file];
        if (done && done.sha256 !== match.fileSha256)
          throw new CheckpointError(
            `${checkpointName} names ${match.file} with another sha256: the archive was rebuilt since; --restart starts over`,
            'bad_state',
          );
        if (done && count <= done.done) continue;
        return {
          doc: docOf(match, state.format, state.keepOriginal),
          file: match.file,
          sha256: match.fileSha256,
        };
      }
      return undefined;
    },
    close: async () => {
      await reader.return?.(undefined).catch(() => {});
    },
  };
}

/** The document of an archived event: its line as archived (`raw`), or its ECS or OCSF document. */
function docOf(match: ArchiveMatch, format: ShipState['format'], keepOriginal: boolean): ShipDoc {
  const { event } = match;
  if (format === 'raw') return { id: event.id, occurredAt: event.occurredAt, json: match.line };
  const line = match.line.toString('utf8');
  const json = JSON.stringify(formatEvent(format, event, { keepOriginal, line }));
  return { id: event.id, occurredAt: event.occurredAt, json };
}
