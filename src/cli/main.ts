import { CommanderError } from 'commander';
import { redact } from '../core/redact.js';
import { keepYoungGenerationSmall, streamsAuditPages } from './bulk-memory.js';
import { debugDetails, describeError } from './error-line.js';
import { EXIT } from './exit-codes.js';
import { type CliIO, processIO } from './io.js';
import { buildProgram, type RunState } from './program.js';
import { abortOnSignals, interruptedExitCode } from './signals.js';
import { writeHumanLine } from './terminal-safe.js';
import { exitWhenWritten, watchWriteErrors } from './write-errors.js';

/**
 * Runs `svc` with `args` (without `node` and the script) and returns the exit code; never throws
 * and never exits the process, so tests can call it in-process.
 */
export async function runCli(args: readonly string[], io: CliIO): Promise<number> {
  const state: RunState = { exitCode: EXIT.OK, context: undefined };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return EXIT.OK;
      }
      if (error.code === 'commander.executeSubCommandAsync' || error.exitCode === 0) return EXIT.OK;
    }
    const described = describeError(error, state.context?.settings.secrets ?? []);
    const { line } = described;
    // Interrupted with nothing to resume from (e.g. `token decode -`): the shell's own 130.
    const code = interruptedExitCode(error, io.signal, described.code);
    writeHumanLine(io.stderr, `svc: ${line}`);
    if (state.context?.settings.debug) {
      for (const detail of debugDetails(error, state.context.settings.secrets))
        writeHumanLine(io.stderr, `[debug] ${detail}`);
    }
    if (state.context?.settings.debug && error instanceof Error && error.stack) {
      for (const frame of redact(error.stack, state.context.settings.secrets).split('\n'))
        writeHumanLine(io.stderr, frame);
    }
    return code;
  } finally {
    await state.context?.close();
  }
}

/**
 * The `svc` binary: wires signals, runs, exits. The first SIGINT/SIGTERM (Ctrl-C on a terminal,
 * `kill -INT`, `kill -TERM`) aborts the run: long commands save their state and exit 75. A second
 * one exits at once with 130, for a run that does not stop fast enough.
 */
export async function main(): Promise<void> {
  // On Node 20 the AWS SDK (loaded for s3:// archives only) prints a nine-line notice that its
  // releases after January 2027 need Node 22, on every command. svc speaks in one-line messages,
  // and docs/audit-archive.md says this once; a user who sets the variable keeps their choice.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  if (streamsAuditPages(process.argv.slice(2))) await keepYoungGenerationSmall();
  const signal = abortOnSignals();
  // A closed pipe (`svc ... | head`) ends quietly; a full disk or an I/O error is one line, exit 1.
  watchWriteErrors();
  const code = await runCli(process.argv.slice(2), processIO(signal));
  process.exitCode = code;
  exitWhenWritten(code);
}
