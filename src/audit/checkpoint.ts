import { open, readFile, rename, rm } from 'node:fs/promises';
import { z } from 'zod';
import { SvcError } from '../core/errors/svc-error.js';

/**
 * The state file of an export, replaced atomically after every page. `bytes` and `events` count
 * what the output holds up to the checkpoint; `cursor` is where the next page starts.
 */
export const ExportState = z.looseObject({
  version: z.literal(1),
  from: z.string(),
  to: z.string(),
  pageSize: z.number().int().positive(),
  gzip: z.boolean(),
  /** Absolute path of the output, or `-` for a stream. */
  output: z.string(),
  /** Cursor of the next page; null before the first page and after the last. */
  cursor: z.string().nullable(),
  complete: z.boolean(),
  bytes: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  lastId: z.string().nullable(),
  /** `totalElements` of the first page; null until it was read. */
  totalElements: z.number().int().nonnegative().nullable(),
  updatedAt: z.string(),
});
export type ExportState = z.infer<typeof ExportState>;

/** Reads a state file; undefined when it does not exist, an error when it is not a state file. */
export async function readState(path: string): Promise<ExportState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SvcError(
      `State file ${path} is not valid JSON; delete it to start the export over`,
      'bad_state',
    );
  }
  const parsed = ExportState.safeParse(json);
  if (!parsed.success) {
    throw new SvcError(
      `State file ${path} is not an export state; delete it to start the export over`,
      'bad_state',
    );
  }
  return parsed.data;
}

/**
 * Replaces the state file atomically: write a temporary file, sync its data, rename it over the
 * old one. The directory is not synced: if a power loss undoes the rename, the previous state is
 * still there, and it is consistent with the output (a resume truncates the output to the size
 * that state records), so the export only repeats a page.
 */
export async function writeState(path: string, state: ExportState): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
