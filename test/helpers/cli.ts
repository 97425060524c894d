import { PassThrough, Readable } from 'node:stream';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { buildProgram } from '../../src/cli/program.js';

/** What an in-process run of `svc` produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runSvc}. */
export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  signal?: AbortSignal;
  tty?: boolean;
  /** The operating system the run believes it is on. Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Called with each chunk written to stderr as it comes (to wait for a server's address line). */
  onStderr?: (text: string) => void;
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** Runs `svc` in-process with an argument array; captures stdout, stderr and the exit code. */
export async function runSvc(args: string[], options: RunOptions = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const onStderr = options.onStderr;
  if (onStderr) stderr.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: { NO_COLOR: '1', HOME: process.env.HOME, ...options.env },
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    stdinIsTTY: false,
    columns: 80,
    signal: options.signal,
    platform: options.platform ?? process.platform,
  };
  const code = await runCli(args, io);
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out(), stderr: err() };
}

/** The real program of `svc`, built on a silent io, to look at its commands (nothing runs). */
export function quietProgram(): Command {
  const io: CliIO = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: Readable.from([]),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: 80,
    signal: undefined,
  };
  return buildProgram(io, { exitCode: 0, context: undefined });
}

/** Every command below and including `command`, parents first, with its path of names (`[]` for the root). */
export function commandsOf(
  command: Command,
  path: string[] = [],
): Array<{ path: string[]; command: Command }> {
  return [{ path, command }, ...command.commands.flatMap((c) => commandsOf(c, [...path, c.name()]))];
}
