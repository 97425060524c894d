import { ClientFactory } from './client-factory.js';
import { CommandOutput } from './command-output.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';
import type { OutputFormat } from './output-format.js';
import { Settings } from './settings.js';
import { Signals } from './signals.js';

/**
 * What every command handler gets, in parts a command takes as it needs them: `settings` (flags,
 * env, profile), `out` (what it prints), `client` (the SvcClient made from the settings),
 * `signals` (interrupts), and `io` for stdin. Runs registered clean-up when the command ends.
 */
export class CommandContext {
  readonly io: CliIO;
  readonly settings: Settings;
  readonly out: CommandOutput;
  readonly client: ClientFactory;
  readonly signals: Signals;
  private readonly cleanups: Array<() => Promise<void>> = [];

  constructor(io: CliIO, flags: GlobalFlags, command?: string, formats?: readonly OutputFormat[]) {
    this.io = io;
    this.settings = new Settings(io, flags, command, (line) => this.out.warn(line), formats);
    this.out = new CommandOutput(io, this.settings);
    this.client = new ClientFactory(this.settings, this.out, (fn) => this.onClose(fn));
    this.signals = new Signals(io.signal);
  }

  /** Registers clean-up to run when the command ends. */
  onClose(fn: () => Promise<void>): void {
    this.cleanups.push(fn);
  }

  /** Runs the clean-up (the client, the sandbox...), last registered first. */
  async close(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Clean-up failures must not hide the command's own result.
      }
    }
  }
}
