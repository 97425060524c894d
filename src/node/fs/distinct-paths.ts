import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { OutputPathError } from '../../core/errors/error-classes.js';

/** A path a run reads or writes, named as the user knows it (`--out`, `output`, `the input`). */
export interface NamedPath {
  /** How the path is named in the error, e.g. `--out` or `output`. */
  name: string;
  /** The path; undefined or empty entries are skipped (an option not given). */
  path: string | undefined;
  /** A directory the run writes into: no other entry may lie inside it. Default false. */
  directory?: boolean;
}

interface Identity {
  name: string;
  path: string;
  /**
   * The path with every symlink of the existing part resolved; lower-cased where file names do
   * not tell case apart.
   */
  real: string;
  /** Device and inode when the path exists (a hard link or symlink to the same file shares them). */
  file: string | undefined;
  directory: boolean;
}

/** Options of {@link checkDistinctPaths}. */
export interface DistinctPathsOptions {
  /**
   * The platform, which decides whether `Results.csv` and `results.csv` are one file: on `win32`
   * and `darwin` (NTFS, and APFS as macOS formats it) they are, so paths are compared without
   * case; a case-sensitive volume on a Mac then only has such a pair refused. Default
   * `process.platform`.
   */
  platform?: NodeJS.Platform;
}

/** Whether names on `platform` are compared without case, as its usual file systems do. */
const caseInsensitive = (platform: NodeJS.Platform) => platform === 'win32' || platform === 'darwin';

async function identify(entry: NamedPath & { path: string }, foldCase: boolean): Promise<Identity> {
  const absolute = resolve(entry.path);
  let real = absolute;
  try {
    real = await realpath(absolute);
  } catch {
    // Not there yet: resolve the folder it would be created in.
    try {
      real = join(await realpath(dirname(absolute)), basename(absolute));
    } catch {
      real = absolute;
    }
  }
  let file: string | undefined;
  try {
    const info = await stat(absolute);
    file = `${info.dev}:${info.ino}`;
  } catch {
    file = undefined;
  }
  if (foldCase) real = real.toLowerCase();
  return { name: entry.name, path: entry.path, real, file, directory: entry.directory === true };
}

const inside = (dir: Identity, other: Identity) =>
  dir.directory &&
  other.real !== dir.real &&
  other.real.startsWith(dir.real.endsWith(sep) ? dir.real : dir.real + sep);

/**
 * Checks, before any byte is written, that the inputs and outputs of a run are distinct files:
 * compared by resolved path (symlinks of existing parts followed) and, for paths that exist, by
 * device and inode (a hard link or a symlink to the same file is the same file). A path inside a
 * `directory` entry clashes with it too. On Windows and macOS names differing only in case are the
 * same file ({@link DistinctPathsOptions.platform}). Throws an {@link OutputPathError} (code
 * `config`) naming both; the first clash found is reported.
 */
export async function checkDistinctPaths(
  entries: readonly NamedPath[],
  options: DistinctPathsOptions = {},
): Promise<void> {
  const foldCase = caseInsensitive(options.platform ?? process.platform);
  const given = entries.filter((e): e is NamedPath & { path: string } => Boolean(e.path));
  const ids = await Promise.all(given.map((entry) => identify(entry, foldCase)));
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as Identity;
      const b = ids[j] as Identity;
      if (a.real === b.real || (a.file !== undefined && a.file === b.file)) {
        throw new OutputPathError(
          `${a.name} and ${b.name} are the same file (${a.path}${b.path !== a.path ? `, ${b.path}` : ''}); give each its own path`,
        );
      }
      const [dir, other] = inside(a, b) ? [a, b] : inside(b, a) ? [b, a] : [];
      if (dir && other) {
        throw new OutputPathError(
          `${other.name} (${other.path}) lies inside ${dir.name} (${dir.path}); keep it outside`,
        );
      }
    }
  }
}
