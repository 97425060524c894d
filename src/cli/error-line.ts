import { CommanderError } from 'commander';
import { problemList } from '../core/error-body.js';
import {
  ApiError,
  LocalValidationError,
  SvcError,
  TimeoutError,
  TokenDecodeError,
} from '../core/errors/error-classes.js';
import { fileFaultWords } from '../core/file-faults.js';
import { PAYMENT_REQUIRED_CAUSES, paymentRequiredCauseOf } from '../core/problem-types.js';
import { redact } from '../core/redact.js';
import { UNTRUSTED_FIX } from '../core/transport/network-errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { UsageError } from './usage-error.js';

const HINTS: Record<number, string> = {
  401: 'no API key was sent: use --api-key, SVC_API_KEY or `svc config set api-key`',
  402: 'the project is locked or its plan does not include this feature',
  403: 'the API key is invalid, unknown or expired',
};

/** The flags that help after a timeout: more silence or attempts, or more total time. */
function timeoutHint(error: TimeoutError): string {
  return error.phase === 'deadline'
    ? 'allow more time with --deadline <ms>'
    : 'allow longer silence with --timeout <ms> or more attempts with --max-retries <n>';
}

function fsMessage(error: NodeJS.ErrnoException): string | undefined {
  if (!error.code || !error.syscall) return undefined;
  const where = error.path ? ` '${error.path}'` : '';
  return `${error.syscall}${where}: ${fileFaultWords(error.code) ?? error.code}`;
}

/**
 * The one place that turns an error into an exit code and one line for stderr. Every line goes
 * through `redact`, so no key reaches the terminal; the caller writes it with `writeHumanLine`,
 * which shows control bytes from the input (an argument, a file, a response) escaped.
 */
/** A library message in the CLI's words: the fix of an untrusted certificate names `--ca-file`. */
export function inCliWords(message: string): string {
  return message.replace(UNTRUSTED_FIX, 'add your CA with --ca-file or NODE_EXTRA_CA_CERTS');
}

export function describeError(
  error: unknown,
  secrets: readonly string[] = [],
): { code: ExitCode; line: string } {
  const clean = (text: string) => redact(text.replace(/\s*\n\s*/g, ' '), secrets);
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
    const cause = error.status === 402 ? paymentRequiredCauseOf(error.body) : undefined;
    const hint = cause ? PAYMENT_REQUIRED_CAUSES[cause] : HINTS[error.status];
    // A 422 names each failing field; kept even when a caller built the error with its own message.
    const problems = error.status === 422 ? problemList(error.body) : undefined;
    const message =
      problems && !error.message.includes(problems) ? `${error.message} (${problems})` : error.message;
    return {
      code: EXIT.FAILURE,
      line: clean(hint && !error.detail ? `${message} (${hint})` : message),
    };
  }
  if (error instanceof TimeoutError && error.phase !== undefined)
    return { code: EXIT.FAILURE, line: clean(`${error.message}; ${timeoutHint(error)}`) };
  if (error instanceof SvcError) {
    return {
      code: error.code === 'config' ? EXIT.USAGE : EXIT.FAILURE,
      line: clean(inCliWords(error.message)),
    };
  }
  if (error instanceof Error) {
    const fs = fsMessage(error as NodeJS.ErrnoException);
    return { code: EXIT.FAILURE, line: clean(fs ?? error.message) };
  }
  return { code: EXIT.FAILURE, line: clean(String(error)) };
}

/** Most of a response body `--debug` prints (bodies are already capped by the client). */
const MAX_DEBUG_BODY = 64 * 1024;

/**
 * What `--debug` adds under the error line, so nothing the server said is lost to the one-line
 * bound: for an API error its request id, every `{path, message}` of a 422 (one per line, not
 * just the first ten) and the whole response body as JSON. Redacted like the line, and written
 * the same way (escaped).
 */
export function debugDetails(error: unknown, secrets: readonly string[] = []): string[] {
  if (!(error instanceof ApiError)) return [];
  const clean = (text: string) => redact(text, secrets);
  const lines: string[] = [];
  if (error.requestId) lines.push(clean(`request-id: ${error.requestId}`));
  const errors = (error.body as { errors?: unknown } | undefined)?.errors;
  if (error.body && typeof error.body === 'object' && Array.isArray(errors)) {
    errors.forEach((entry, index) => {
      const { path, message } = (entry ?? {}) as { path?: unknown; message?: unknown };
      const where = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : '';
      const text = typeof message === 'string' ? message : JSON.stringify(entry);
      lines.push(clean(`errors[${index}] ${where ? `${where}: ` : ''}${text}`));
    });
  }
  if (error.body !== undefined) {
    const body = typeof error.body === 'string' ? error.body : JSON.stringify(error.body);
    const shown =
      body.length > MAX_DEBUG_BODY
        ? `${body.slice(0, MAX_DEBUG_BODY)} (${body.length - MAX_DEBUG_BODY} more characters)`
        : body;
    lines.push(clean(`response body: ${shown}`));
  }
  return lines;
}
