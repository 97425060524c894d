import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { AUDIT_EVENT_FORMATS } from '../../audit/normalise/format.js';
import { CheckpointError } from '../../core/errors/error-classes.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { ListedFileName, Sha256Hex } from '../audit-archive/fields.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { shipStateName } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { parseStateText } from '../fs/checkpoint.js';
import { SHIP_KINDS, type ShipKind } from './options.js';

// A ship's checkpoint: one object per destination in the archive it ships (a file in a folder, an
// object in a bucket), so any machine that reads the archive goes on where the last run stopped.
// It names, per data file, how many of the file's events in the range are done (created, already
// there or dead-lettered), in the file's order; the totals; and the dead-letter file's durable size.

/** A checkpoint larger than this (1 MiB: some 9,000 data files) is not one a ship wrote. */
const MAX_SHIP_STATE_BYTES = 1024 * 1024;

const Count = () => z.number().check(z.int()).check(z.gte(0));

/** What a ship remembers of one destination between runs. */
export const ShipStateSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    kind: z.enum(SHIP_KINDS as [ShipKind, ...ShipKind[]]),
    /** The destination's URL, without credentials. */
    destination: z.string(),
    index: z.nullable(z.string()),
    format: z.enum(AUDIT_EVENT_FORMATS as ['raw', 'ecs', 'ocsf']),
    keepOriginal: z.boolean(),
    /** The range as asked (null: open), so a run with another range does not take these counts for its own. */
    from: z.nullable(z.string()),
    to: z.nullable(z.string()),
    /** Per data file: its sha256 and how many of its events in the range are done, from its first line on. */
    files: z.record(ListedFileName(), z.object({ sha256: Sha256Hex(), done: Count() })),
    created: Count(),
    alreadyThere: Count(),
    deadLettered: Count(),
    /** The dead-letter file (absolute path) and its size when this state was written; null before the first. */
    deadLetter: z.nullable(z.object({ path: z.string(), bytes: Count() })),
    updatedAt: z.string(),
  }),
);
/** What a ship remembers of one destination between runs. */
export type ShipState = z.infer<ReturnType<typeof ShipStateSchema>>;

/** What names a destination: the same kind, URL and index is the same checkpoint. */
export interface ShipTarget {
  kind: ShipKind;
  destination: string;
  index: string | null;
}

/** The checkpoint's id: 16 hex digits of the SHA-256 of the kind, URL and index. */
export function shipId(target: ShipTarget): string {
  return createHash('sha256')
    .update(JSON.stringify([target.kind, target.destination, target.index]))
    .digest('hex')
    .slice(0, 16);
}

/** Reads a destination's checkpoint from the archive; undefined when there is none. */
export async function readShipState(store: ArchiveStore, id: string): Promise<ShipState | undefined> {
  const name = shipStateName(id);
  let bytes: Buffer;
  try {
    bytes = await store.read(name, MAX_SHIP_STATE_BYTES);
  } catch (error) {
    if (error instanceof ArchiveFileError && error.message === 'missing') return undefined;
    if (error instanceof ArchiveFileError)
      throw new CheckpointError(
        `${store.describe(name)}: ${error.message}; delete it to start over`,
        'bad_state',
      );
    throw error;
  }
  const state = parseStateText(bytes.toString('utf8'), ShipStateSchema(), {
    notJson: `${store.describe(name)} is not JSON: not a checkpoint svc audit ship wrote; --restart starts over`,
    notState: `${store.describe(name)} is not a checkpoint svc audit ship wrote; --restart starts over`,
  });
  return state;
}

/** Writes a destination's checkpoint into the archive, whole (atomic on a folder and a bucket). */
export function writeShipState(store: ArchiveStore, id: string, state: ShipState): Promise<void> {
  return store.replace(shipStateName(id), `${JSON.stringify(state, null, 2)}\n`);
}
