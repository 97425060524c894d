import { CommanderError } from 'commander';
import { redact } from '../core/redact.js';
import { describeError } from './error-line.js';
import { EXIT } from './exit-codes.js';
import { type CliIO, processIO } from './io.js';
import { buildProgram, type RunState } from './program.js';

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
    const { code, line } = describeError(error, state.context?.secrets ?? []);
    io.stderr.write(`svc: ${line}\n`);
    if (state.context?.debug && error instanceof Error && error.stack) {
      io.stderr.write(`${redact(error.stack, state.context.secrets)}\n`);
    }
    return code;
  } finally {
    await state.context?.close();
  }
}

/** The `svc` binary: wires signals, runs, exits. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals > 1) process.exit(130);
    controller.abort();
  };
  // A closed pipe (`svc ... | head`) ends the command quietly, as other Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await runCli(process.argv.slice(2), processIO(controller.signal));
  process.exitCode = code;
  // Exit once stdout has drained, so lingering handles cannot keep a finished command alive.
  process.stdout.write('', () => process.exit(code));
}
