import { CommanderError } from 'commander';
import { ApiError } from '../core/errors/api-error.js';
import { LocalValidationError } from '../core/errors/local-validation-error.js';
import { SvcError } from '../core/errors/svc-error.js';
import { TokenDecodeError } from '../core/errors/token-decode-error.js';
import { redact } from '../core/redact.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { escapeForTerminal } from './terminal-safe.js';
import { UsageError } from './usage-error.js';

const HINTS: Record<number, string> = {
  401: 'no API key was sent: use --api-key, SVC_API_KEY or `svc config set api-key`',
  402: 'the project is locked or its plan does not include this feature',
  403: 'the API key is invalid, unknown or expired',
};

function fsMessage(error: NodeJS.ErrnoException): string | undefined {
  if (!error.code || !error.syscall) return undefined;
  const where = error.path ? ` '${error.path}'` : '';
  const what: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOSPC: 'no space left on device',
    EEXIST: 'already exists',
  };
  return `${error.syscall}${where}: ${what[error.code] ?? error.code}`;
}

/**
 * The one place that turns an error into an exit code and one line for stderr. Every line goes
 * through `redact`, so no key reaches the terminal, and through `escapeForTerminal`, so control
 * bytes from the input (an argument, a file, a response) are shown escaped, never sent raw.
 */
export function describeError(
  error: unknown,
  secrets: readonly string[] = [],
): { code: ExitCode; line: string } {
  const clean = (text: string) => escapeForTerminal(redact(text.replace(/\s*\n\s*/g, ' '), secrets));
  if (error instanceof CommanderError)
    return { code: EXIT.USAGE, line: clean(error.message.replace(/^error:\s*/, '')) };
  if (error instanceof UsageError) return { code: EXIT.USAGE, line: clean(error.message) };
  if (error instanceof LocalValidationError) {
    const issues = error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return { code: EXIT.USAGE, line: clean(`invalid input: ${issues || error.message}`) };
  }
  if (error instanceof TokenDecodeError)
    return { code: EXIT.USAGE, line: clean(`invalid verification token: ${error.message}`) };
  if (error instanceof ApiError) {
    const hint = HINTS[error.status];
    return {
      code: EXIT.FAILURE,
      line: clean(hint && !error.detail ? `${error.message} (${hint})` : error.message),
    };
  }
  if (error instanceof SvcError)
    return { code: error.code === 'config' ? EXIT.USAGE : EXIT.FAILURE, line: clean(error.message) };
  if (error instanceof Error) {
    const fs = fsMessage(error as NodeJS.ErrnoException);
    return { code: EXIT.FAILURE, line: clean(fs ?? error.message) };
  }
  return { code: EXIT.FAILURE, line: clean(String(error)) };
}
