/**
 * What a file system error code means, in the words of `strerror`: the one table behind every
 * one-line error about a file (reads and writes of a run, the CLI's last-resort error line).
 */
const FILE_FAULTS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  EEXIST: 'already exists',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EPIPE: 'the reader closed the pipe',
};

/** The words for a file system error code, or undefined for a code not in the table. */
export function fileFaultWords(code: string | undefined): string | undefined {
  return code === undefined ? undefined : FILE_FAULTS[code];
}

/** A file system error in words with its code, e.g. `no such file or directory (ENOENT)`; its message when the code is unknown. */
export function fileFault(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const what = fileFaultWords(code) ?? (error instanceof Error ? error.message : String(error));
  return code ? `${what} (${code})` : what;
}
