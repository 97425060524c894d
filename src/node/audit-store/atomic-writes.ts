import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFileAtomic } from '../fs/atomic-file.js';
import { DEFAULT_FILE_MODE } from '../fs/output-file.js';
import { TMP_SUFFIX } from './layout.js';

/**
 * Writes a file atomically with the one atomic-write module's {@link replaceFileAtomic}, through the
 * fixed temporary name `path` + {@link TMP_SUFFIX} (created exclusively: an existing one is an
 * error, never overwritten, never followed as a symlink), so a killed run's leftover is found by
 * {@link removeStaleTemporaries}. Default mode 0600.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = DEFAULT_FILE_MODE,
): Promise<void> {
  return replaceFileAtomic(path, data, { mode, tmp: `${path}${TMP_SUFFIX}` });
}

/** Removes temporary files a killed run left in `dir` (call only while holding the lock). */
export async function removeStaleTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.endsWith(TMP_SUFFIX)) await rm(join(dir, name), { force: true });
  }
}
