import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Node's own `mkdir(path, { recursive: true })` never returns for a path under /proc (and other
// file systems that answer ENOENT to a mkdir in a folder that exists): it reads ENOENT as "the
// parent is missing", makes the parent (EEXIST), tries the child again, and so on forever, at
// 100 % CPU inside one synchronous call, where no signal handler runs. This walk makes each
// missing folder once, top down, so every answer of the file system is final.

/** Whether `error` is a file system error with this code. */
function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException)?.code === code;
}

/**
 * Makes `path` and its missing parents (each with `mode`, narrowed by the umask), like
 * `mkdir -p`, but never loops: the nearest existing ancestor is found with `stat`, then each
 * missing level is made with one plain `mkdir`, and its error is thrown as it came (`ENOENT`
 * under /proc, `ENOTDIR` under a regular file, `EACCES` in a read-only folder, `EROFS`), with
 * the `path` of the level that failed. A level that appears meanwhile (`EEXIST`) is fine when it
 * is a folder. Nothing to do when `path` is already a folder; `ENOTDIR` when it is something else.
 */
export function makeDirsSync(path: string, mode = 0o777): void {
  const missing: string[] = [];
  for (let at = resolve(path); ; ) {
    try {
      if (statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), {
        code: 'ENOTDIR',
        syscall: 'mkdir',
        path: at,
      });
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
    missing.push(at);
    const parent = dirname(at);
    // The root itself is missing (no such drive): the mkdir below reports it.
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode });
    } catch (error) {
      if (!isCode(error, 'EEXIST') || !statSync(dir).isDirectory()) throw error;
    }
  }
}
