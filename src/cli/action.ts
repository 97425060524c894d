import type { Handler } from './command.js';
import { commandPath } from './command-path.js';
import { CommandContext } from './context.js';
import { csvStyleOf } from './csv-options.js';
import { EXIT } from './exit-codes.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';
import type { OutputFormat } from './output-format.js';

/** Holds what one run produced, so `main` can map it to an exit code. */
export interface RunState {
  exitCode: number;
  context: CommandContext | undefined;
}

/**
 * Wraps a lazily imported handler as a commander action: the module (and undici, zod, conf, ora
 * behind it) loads only when the command runs, so `svc --help` stays fast.
 */
export function lazy<Args extends unknown[]>(
  io: CliIO,
  state: RunState,
  flags: () => GlobalFlags,
  load: () => Promise<Handler<Args>>,
  contract: Readonly<Record<string, readonly OutputFormat[]>>,
): (...args: Args) => Promise<void> {
  return async (...args) => {
    const path = commandPath(args.at(-1));
    const ctx = new CommandContext(io, flags(), path, path === undefined ? undefined : contract[path]);
    state.context = ctx;
    // Refuse a bad --output, or one this command does not print (output-contract.ts), before anything is sent.
    // So are --bom and --delimiter without CSV output (csv-options.ts).
    ctx.out.useCsvStyle(csvStyleOf(args.at(-1), ctx.settings.format));
    const handler = await load();
    const code = await handler(ctx, ...args);
    state.exitCode = code ?? EXIT.OK;
  };
}
