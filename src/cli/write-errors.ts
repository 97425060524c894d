import { fileFault } from '../core/file-faults.js';
import { EXIT } from './exit-codes.js';

// What happens when svc cannot write its standard output or error: a full disk (`> /dev/full`,
// ENOSPC), a quota, an I/O error. The data a command printed is lost, so the run must not end 0
// (in CI that is silent data loss). The one exception is a closed pipe (`svc ... | head -1`):
// the reader has what it wanted, and svc ends quietly, as other Unix tools do.

/** The line for a failed write to `stream`, e.g. `svc: cannot write standard output: no space left on device (ENOSPC)`. */
export function writeErrorLine(stream: 'standard output' | 'standard error', error: unknown): string {
  return `svc: cannot write ${stream}: ${fileFault(error)}`;
}

/**
 * Watches the process's stdout and stderr for write errors, for every command: EPIPE on stdout
 * exits quietly with the run's code so far (0 unless something failed before); any other error
 * on stdout writes one line on stderr and exits 1; an error on stderr exits 1 (no line can reach
 * anyone). `exit` is `process.exit` unless a test gives another.
 */
export function watchWriteErrors(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
  exit: (code: number) => never = process.exit,
): void {
  stdout.on('error', (error: NodeJS.ErrnoException) => failedStdout(error, stderr, exit));
  stderr.on('error', () => exit(EXIT.FAILURE));
}

/**
 * Ends the process with `code` once stdout has taken everything written (so lingering handles
 * cannot keep a finished command alive), or as {@link watchWriteErrors} says when a write failed:
 * the failure may reach this last write before the stream's `error` event does.
 */
export function exitWhenWritten(
  code: number,
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
  exit: (code: number) => never = process.exit,
): void {
  stdout.write('', (error?: NodeJS.ErrnoException | null) =>
    error ? failedStdout(error, stderr, exit, code) : exit(code),
  );
}

function failedStdout(
  error: NodeJS.ErrnoException,
  stderr: NodeJS.WriteStream,
  exit: (code: number) => never,
  code = Number(process.exitCode ?? EXIT.OK),
): never {
  if (error.code === 'EPIPE') return exit(code);
  try {
    stderr.write(`${writeErrorLine('standard output', error)}\n`);
  } catch {
    // stderr is gone too: the exit code says it.
  }
  return exit(EXIT.FAILURE);
}
