import * as z from 'zod/mini';
import { lazySchema } from '../../core/lazy-schema.js';
import { readStateFile } from '../fs/checkpoint.js';

/**
 * The state file of an export, replaced atomically at each checkpoint (see core/checkpoint.ts). `bytes` and `events` count
 * what the output holds up to the checkpoint; `cursor` is where the next page starts.
 */
export const ExportStateSchema = lazySchema(() =>
  z.looseObject({
    version: z.literal(1),
    from: z.string(),
    to: z.string(),
    pageSize: z.number().check(z.int()).check(z.gt(0)),
    gzip: z.boolean(),
    /** How events are written (absent in states of versions before it: `raw`). */
    format: z.optional(z.enum(['raw', 'ecs', 'ocsf'])),
    /** With `format` ecs or ocsf: the original kept in each document. */
    keepOriginal: z.optional(z.boolean()),
    /** Absolute path of the output, or `-` for a stream. */
    output: z.string(),
    /** Cursor of the next page; null before the first page and after the last. */
    cursor: z.nullable(z.string()),
    complete: z.boolean(),
    bytes: z.number().check(z.int()).check(z.gte(0)),
    events: z.number().check(z.int()).check(z.gte(0)),
    pages: z.number().check(z.int()).check(z.gte(0)),
    lastId: z.nullable(z.string()),
    /** `totalElements` of the first page; null until it was read. */
    totalElements: z.nullable(z.number().check(z.int()).check(z.gte(0))),
    updatedAt: z.string(),
  }),
);
export type ExportState = z.infer<ReturnType<typeof ExportStateSchema>>;

/** Reads an export's state file; undefined when it does not exist, a `bad_state` error when it is not one. */
export function readExportState(path: string): Promise<ExportState | undefined> {
  return readStateFile(path, ExportStateSchema(), {
    notJson: `State file ${path} is not valid JSON; delete it to start the export over`,
    notState: `State file ${path} is not an export state; delete it to start the export over`,
  });
}
