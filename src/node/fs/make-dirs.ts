import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

// Node's own `mkdir(path, { recursive: true })` never returns for a path under /proc (and other
// file systems that answer ENOENT to a mkdir in a folder that exists): it reads ENOENT as "the
// parent is missing", makes the parent (EEXIST), tries the child again, and so on forever, at
// 100 % CPU: the synchronous call never returns (so no signal handler runs), the promise never
// settles. This walk makes each missing folder once, top down, so every answer of the
// file system is final. The one rule for making folders: the config folder, an archive folder,
// a work folder.

/** Whether `error` is a file system error with this code. */
function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException)?.code === code;
}

/** What a path is, for the walk: a folder, something else, or nothing (`ENOENT`); other errors thrown. */
type Found = 'folder' | 'other' | 'missing';

const found = (isDirectory: boolean): Found => (isDirectory ? 'folder' : 'other');

function notAFolder(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), {
    code: 'ENOTDIR',
    syscall: 'mkdir',
    path,
  });
}

/**
 * The levels to make for `path`, top down: `path` and each missing parent up to the nearest that
 * exists. It yields each path to look at and is told what is there (sync or async callers).
 */
function* missingLevels(path: string): Generator<string, string[], Found> {
  const missing: string[] = [];
  for (let at = resolve(path); ; ) {
    const what = yield at;
    if (what === 'folder') break;
    if (what === 'other') throw notAFolder(at);
    missing.push(at);
    const parent = dirname(at);
    // The root itself is missing (no such drive): the mkdir of it reports that.
    if (parent === at) break;
    at = parent;
  }
  return missing.reverse();
}

/**
 * Makes `path` and its missing parents (each with `mode`, narrowed by the umask), like
 * `mkdir -p`, but never loops: the nearest existing ancestor is found with `stat`, then each
 * missing level is made with one plain `mkdir`, and its error is thrown as it came (`ENOENT`
 * under /proc, `ENOTDIR` under a regular file, `EACCES` in a read-only folder, `EROFS`), with
 * the `path` of the level that failed. A level that appears meanwhile (`EEXIST`) is fine when it
 * is a folder. Nothing to do when `path` is already a folder; `ENOTDIR` when it is something
 * else, `EEXIST` when it is a dangling symbolic link.
 */
export function makeDirsSync(path: string, mode = 0o777): void {
  const look = (at: string): Found => {
    try {
      return found(statSync(at).isDirectory());
    } catch (error) {
      if (isCode(error, 'ENOENT')) return 'missing';
      throw error;
    }
  };
  const walk = missingLevels(path);
  let step = walk.next();
  while (!step.done) step = walk.next(look(step.value));
  for (const dir of step.value) {
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      if (!isCode(error, 'EEXIST') || look(dir) !== 'folder') throw error;
    }
  }
}

/** {@link makeDirsSync}, asynchronous. */
export async function makeDirs(path: string, mode = 0o777): Promise<void> {
  const look = async (at: string): Promise<Found> => {
    try {
      return found((await stat(at)).isDirectory());
    } catch (error) {
      if (isCode(error, 'ENOENT')) return 'missing';
      throw error;
    }
  };
  const walk = missingLevels(path);
  let step = walk.next();
  while (!step.done) step = walk.next(await look(step.value));
  for (const dir of step.value) {
    try {
      await mkdir(dir, { mode });
    } catch (error) {
      if (!isCode(error, 'EEXIST') || (await look(dir)) !== 'folder') throw error;
    }
  }
}
