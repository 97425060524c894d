import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { CommandContext } from './context.js';
import type { OutputFormat } from './output-format.js';

// One command as one module (issue #42, commands/<path>.ts): its path, help, flags, output
// formats, examples and handler loader together, as citty's defineCommand holds them; what a
// command does when it runs is its handler, in handlers/. The registry (registry.ts) lists the
// modules in order and derives the program, the output contract and the help examples from them.
// This file imports types only, so a command module loads nothing of the run machinery.
// A handler whose options are typed takes them from options/ (`OptionsOf<typeof validateOptions>`),
// which its module passes as `configure`: the module imports its handler lazily, the handler
// never imports its module, so no import runs back.

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

/** What commander passes to the action of `C`: its arguments, its options, the command itself. */
export type ActionArgs<C> = C extends Command<infer Args, infer Opts> ? [...Args, Opts, C] : never;

/** One command as its module declares it (see {@link defineCommand}). */
export interface CommandSpec<C extends Command<unknown[], OptionValues>> {
  /** The path below `svc`, as the output contract names it (`audit gaps ack`). */
  readonly path: string;
  /** The one-line description of its help. */
  readonly summary: string;
  /**
   * Adds arguments, options and help text to the bare command (named and described already); the
   * handler's parameters are checked against what it builds. Type its parameter (`command:
   * Command`) when `load` returns a handler typed elsewhere, so the types are inferred from here;
   * a handler that types its options takes them from the same function in options/.
   */
  readonly configure?: ((command: Command) => C) | undefined;
  /** The `-o` formats it honours; none when it prints no data in a format. */
  readonly outputs: readonly OutputFormat[];
  /** The examples its help ends with. */
  readonly examples: readonly string[];
  /** Loads its handler when the command runs, so `svc --help` loads no handler. */
  readonly load: () => Promise<Handler<ActionArgs<NoInfer<C>>>>;
}

/** One command: everything the registry needs to register it and to describe it. */
export interface CommandModule<C extends Command<unknown[], OptionValues> = Command<unknown[], OptionValues>>
  extends CommandSpec<C> {
  readonly kind: 'command';
}

/** A group (`svc audit`): a command with subcommands and a description of its own, no action. */
export interface GroupModule {
  readonly kind: 'group';
  /** The path below `svc` (`audit`, `audit gaps` is a command that is a group too). */
  readonly path: string;
  /** The one-line description of its help. */
  readonly summary: string;
}

/** What the registry lists. */
export type RegistryEntry = CommandModule | GroupModule;

/** A command module; `configure` types the handler's arguments and options. */
export function defineCommand<C extends Command<unknown[], OptionValues> = Command>(
  spec: CommandSpec<C>,
): CommandModule {
  return { kind: 'command', ...spec } as unknown as CommandModule;
}

/** A group entry: its path and description. */
export function defineGroup(spec: Omit<GroupModule, 'kind'>): GroupModule {
  return { kind: 'group', ...spec };
}
