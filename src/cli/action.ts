import type { OptionValues } from '@commander-js/extra-typings';
import { CommandContext } from './context.js';
import { csvStyleOf } from './csv-options.js';
import { EXIT } from './exit-codes.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';
import { commandPath } from './output-contract.js';

/**
 * A command handler: the context, then what commander passes to an action (the arguments, the
 * options, the command itself), typed by the command's definition. Returns an exit code (default 0).
 */
export type Handler<Args extends unknown[]> = (
  ctx: CommandContext,
  ...args: Args
) => Promise<number | undefined> | number | undefined;

/**
 * Turns a lazy handler loader into a commander action. `Args` is inferred from the definition
 * only (the action commander expects there: arguments, options, command), never from the
 * handler, so a handler whose parameters do not match its definition fails to compile.
 */
export type Runner = <Args extends unknown[]>(
  load: NoInfer<() => Promise<Handler<Args>>>,
) => (...args: Args) => Promise<void>;

/**
 * The options of the command a definition builds, as `@commander-js/extra-typings` infers them
 * from its `.option`/`.addOption` calls: the one source of a handler's option types (no handler
 * copies them by hand). `Define` is the function that builds the command, before its `.action`.
 */
export type OptionsOf<Define extends (...args: never[]) => { opts(): OptionValues }> = ReturnType<
  ReturnType<Define>['opts']
>;

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
): (...args: Args) => Promise<void> {
  return async (...args) => {
    const ctx = new CommandContext(io, flags(), commandPath(args.at(-1)));
    state.context = ctx;
    // Refuse a bad --output, or one this command does not print (output-contract.ts), before anything is sent.
    // So are --bom and --delimiter without CSV output (csv-options.ts).
    ctx.out.useCsvStyle(csvStyleOf(args.at(-1), ctx.settings.format));
    const handler = await load();
    const code = await handler(ctx, ...args);
    state.exitCode = code ?? EXIT.OK;
  };
}
