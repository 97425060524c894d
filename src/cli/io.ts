import type { Readable, Writable } from 'node:stream';
import { AbortError } from '../core/errors/error-classes.js';

/** The process surface a command touches; tests pass their own. */
export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stderr, if known. */
  columns: number | undefined;
  /** Fires on SIGINT/SIGTERM; long commands save state and exit 75. */
  signal: AbortSignal | undefined;
  /** The operating system, which places the config file and decides whether file modes apply. Default `process.platform`. */
  platform?: NodeJS.Platform;
}

/** The real process. */
export function processIO(signal?: AbortSignal): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Touching process.stdin builds a stream (and loads fs streams): only when a command reads it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    columns: process.stderr.columns,
    signal,
    platform: process.platform,
  };
}

/**
 * Reads all of a stream as UTF-8 text. With `signal`, an interrupt stops the read at once with
 * an {@link AbortError} (a terminal stdin never ends by itself, so without this the first Ctrl-C
 * was lost and a second one was needed).
 */
export function readAll(stream: Readable, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer | string) => {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    };
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAbort = () => {
      cleanup();
      stream.pause();
      reject(new AbortError('interrupted while reading stdin'));
    };
    if (signal?.aborted) return onAbort();
    if (stream.readableEnded) return resolve('');
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}
