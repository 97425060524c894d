import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { CommandContext, type GlobalFlags } from './context.js';
import { defineCommands } from './definitions.js';
import { EXIT } from './exit-codes.js';
import { applyHelpExtras } from './help-extras.js';
import type { CliIO } from './io.js';

/** A command handler: returns an exit code (default 0). */
export type Handler = (
  ctx: CommandContext,
  ...args: unknown[]
) => Promise<number | undefined> | number | undefined;

/** Turns a lazy handler loader into a commander action. */
export type Runner = (load: () => Promise<Handler>) => (...args: unknown[]) => Promise<void>;

/** Holds what one run produced, so `main` can map it to an exit code. */
export interface RunState {
  exitCode: number;
  context: CommandContext | undefined;
}

/**
 * Wraps a lazily imported handler as a commander action: the module (and undici, zod, conf, ora
 * behind it) loads only when the command runs, so `svc --help` stays fast.
 */
export function lazy(io: CliIO, state: RunState, load: () => Promise<Handler>) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const flags = command.optsWithGlobals() as GlobalFlags;
    const ctx = new CommandContext(io, flags);
    state.context = ctx;
    // Refuse a bad --output before anything is sent.
    void ctx.format;
    const handler = await load();
    const code = await handler(ctx, ...args.slice(0, -1));
    state.exitCode = code ?? EXIT.OK;
  };
}

/** Builds the `svc` program with every global option and command. */
export function buildProgram(io: CliIO, state: RunState): Command {
  const program = new Command('svc')
    .description('Tax-ID validation, audit log export and bot-check verification from the terminal')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--base-url <url>', 'service base URL (env SVC_BASE_URL)'))
    .addOption(
      new Option('--api-key <key>', 'API key (env SVC_API_KEY; prefer env or `svc config set api-key`)'),
    )
    .addOption(new Option('--profile <name>', 'config profile (env SVC_PROFILE)'))
    .addOption(
      new Option(
        '-o, --output <format>',
        'table | json | ndjson | csv (default: table on a TTY, json otherwise)',
      ),
    )
    .addOption(
      new Option('--sandbox', 'run against an in-process reference server with demo data and no key'),
    )
    .addOption(new Option('--timeout <ms>', 'per-attempt timeout in milliseconds'))
    .addOption(new Option('--max-retries <n>', 'retries for calls that are safe to retry'))
    .addOption(new Option('--debug', 'log HTTP exchanges (redacted) and stack traces on stderr'))
    .addOption(new Option('-q, --quiet', 'no progress or summaries on stderr'))
    .addOption(new Option('--no-color', 'plain output (also NO_COLOR)'))
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Errors are printed once, by main, as a single line.
      outputError: () => {},
    });
  defineCommands(program, io, state);
  applyHelpExtras(program);
  for (const command of program.commands) {
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => {},
    });
    for (const sub of command.commands) {
      sub.exitOverride();
      sub.configureOutput({
        writeOut: (text) => io.stdout.write(text),
        writeErr: (text) => io.stderr.write(text),
        outputError: () => {},
      });
    }
  }
  return program;
}
