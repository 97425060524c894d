import type { Readable, Writable } from 'node:stream';

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
  };
}

/** Reads all of a stream as UTF-8 text. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
