import { constants } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { OutputPathError } from '../../core/errors/error-classes.js';
import { makeDirs } from './make-dirs.js';
import { DEFAULT_FILE_MODE } from './output-file.js';

// The one rule for a folder a run keeps its work in (a bucket sync's export before it goes up):
// the user's own, nobody else's. A folder of a predictable name in a shared place (the OS temp
// folder) can be made first by another user, who then reads and swaps what the run writes there.

/** Mode of a private work folder: owner only. */
export const PRIVATE_DIR_MODE = 0o700;

const { O_RDWR, O_RDONLY, O_CREAT, O_EXCL } = constants;
// Windows has no O_NOFOLLOW; O_EXCL alone refuses an existing link there.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The per-user folder under which svc keeps work that must survive a killed run (so the run can
 * resume): `%LOCALAPPDATA%\svc` on Windows, `~/Library/Caches/svc` on macOS, else
 * `$XDG_CACHE_HOME/svc` or `~/.cache/svc`. Never the shared OS temp folder. An `OutputPathError`
 * when the user has no home folder (give a work folder explicitly then).
 */
export function userWorkRoot(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'svc');
  if (platform !== 'win32' && platform !== 'darwin' && env.XDG_CACHE_HOME?.startsWith('/'))
    return join(env.XDG_CACHE_HOME, 'svc');
  let home = '';
  try {
    home = homedir();
  } catch {
    // No HOME and no passwd entry: handled below.
  }
  if (home === '')
    throw new OutputPathError(
      'no home folder for the sync work folder; give one with --work-dir (option workDir)',
    );
  if (platform === 'win32') return join(home, 'AppData', 'Local', 'svc');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'svc');
  return join(home, '.cache', 'svc');
}

/** What {@link ensurePrivateDir} checks against; a test gives another user or platform. */
export interface PrivateDirOptions {
  /** The user who must own it. Default `process.getuid()`. */
  uid?: number;
  /** Default `process.platform`; on `win32` only "a folder, not a link" is checked (no owner or modes there). */
  platform?: NodeJS.Platform;
}

/** The refusal of a work folder: one line naming it and the fix. */
function refuse(path: string, why: string, fix: string): OutputPathError {
  return new OutputPathError(`work folder ${path} ${why}; ${fix}`);
}

/**
 * Creates `path` (and missing parents) with mode 0700 when absent, then refuses it
 * (`OutputPathError`, code `config`) unless it is a folder, not a symbolic link, owned by this
 * user, with no permission bits for group or others: a folder another user made or can write
 * into could be read, or its files swapped, by that user.
 */
export async function ensurePrivateDir(path: string, options: PrivateDirOptions = {}): Promise<void> {
  await makeDirs(path, PRIVATE_DIR_MODE).catch((error: NodeJS.ErrnoException) => {
    // Something not a folder lies there (or on the way): named by the checks below.
    if (error.code !== 'EEXIST' && error.code !== 'ENOTDIR') throw error;
  });
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOTDIR')
      throw refuse(path, 'lies inside a file, not a folder', 'give another --work-dir');
    throw error;
  });
  if (info.isSymbolicLink())
    throw refuse(path, 'is a symbolic link', 'give the folder itself, or remove the link');
  if (!info.isDirectory()) throw refuse(path, 'is not a folder', 'remove it or give another --work-dir');
  if ((options.platform ?? process.platform) === 'win32') return;
  const uid = options.uid ?? process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    throw refuse(
      path,
      `belongs to another user (uid ${info.uid})`,
      'remove it, or give a folder of your own with --work-dir',
    );
  if ((info.mode & 0o077) !== 0)
    throw refuse(
      path,
      `is open to other users (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')})`,
      `run chmod 700 on it, or give a folder of your own with --work-dir`,
    );
}

/**
 * Creates a work file exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`, never an existing file or
 * link), open for reading and writing, with `mode` (default 0600; the umask does not narrow it).
 */
export async function createWorkFile(path: string, mode = DEFAULT_FILE_MODE): Promise<FileHandle> {
  const handle = await open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  await handle.chmod(mode).catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  return handle;
}

/**
 * Opens a work file a run wrote, for reading, never through a link, and refuses it unless it is
 * a regular file of this user with one name and no permission bits for group or others.
 */
export async function openWorkFile(path: string, options: PrivateDirOptions = {}): Promise<FileHandle> {
  const handle = await open(path, O_RDONLY | O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new OutputPathError(`work file ${path} is not a regular file`);
    if ((options.platform ?? process.platform) !== 'win32') {
      const uid = options.uid ?? process.getuid?.();
      if ((uid !== undefined && info.uid !== uid) || info.nlink !== 1 || (info.mode & 0o077) !== 0)
        throw new OutputPathError(
          `work file ${path} is not this user's own (owner, links or mode); remove it and run again`,
        );
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** Bytes read at a time by {@link readWorkFile}. */
const READ_CHUNK = 64 * 1024;

/**
 * The whole of a work file from its start, through its open handle (positional reads: the
 * handle stays open, and may be read again). A fresh buffer each chunk: a consumer may keep it.
 */
export async function* readWorkFile(handle: FileHandle): AsyncGenerator<Buffer> {
  let position = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
