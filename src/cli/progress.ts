import type { CliIO } from './io.js';
import { escapeForTerminal } from './terminal-safe.js';

/** A one-line progress display on stderr; silent unless stderr is a usable terminal. */
export interface Progress {
  /**
   * New text, or a function that makes it: called only when the text is shown (a silent display,
   * or an update within 100 ms of the last, never calls it), so per-row callers pay nothing.
   */
  update(text: string | (() => string)): void;
  /** Writes lines (through `write`) above the display, which is then drawn again. */
  print(write: () => void): void;
  stop(): void;
  /** Whether the display is shown (a usable terminal); callers print their own lines otherwise. */
  readonly live: boolean;
}

const SILENT: Progress = { update: () => {}, print: (write) => write(), stop: () => {}, live: false };

/** How progress may show: from the run's settings. */
export interface ProgressDisplay {
  /** `--quiet`: no progress at all. */
  quiet: boolean;
  /** Colour allowed (no `--no-color`, no `NO_COLOR`): otherwise the spinner is drawn without colour codes. */
  colorAllowed: boolean;
}

/**
 * Starts an ora spinner when stderr is a TTY with a known, non-zero width (ora hangs on
 * 0-column terminals), `TERM` is not `dumb` and `--quiet` is off; otherwise progress is silent
 * (also under `CI`, since stderr is checked directly rather than ora's own guess). Updates are
 * throttled to ten a second.
 *
 * The spinner leaves stdin alone (`discardStdin: false`): ora's default puts a terminal stdin
 * in raw mode, which turns off the terminal's own signal keys, so Ctrl-C and Ctrl-\ did nothing
 * while a spinner showed. With stdin untouched the terminal sends SIGINT/SIGQUIT as usual.
 *
 * The text is shown with control characters escaped (it may quote a file or a response). The
 * spinner is cyan unless colour is off (`--no-color`, `NO_COLOR`): then ora gets `color: false`
 * and writes no SGR colour code (its own guess reads neither `NO_COLOR` nor stderr).
 */
export async function startProgress(io: CliIO, display: ProgressDisplay, text: string): Promise<Progress> {
  if (display.quiet || !io.stderrIsTTY || (io.columns ?? 80) <= 0 || io.env.TERM === 'dumb') return SILENT;
  const { default: ora } = await import('ora');
  const spinner = ora({
    text: escapeForTerminal(text),
    stream: io.stderr as NodeJS.WritableStream & { isTTY?: boolean },
    discardStdin: false,
    isEnabled: true,
    ...(!display.colorAllowed && { color: false as const }),
  }).start();
  let last = 0;
  return {
    update(next: string | (() => string)) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      spinner.text = escapeForTerminal(typeof next === 'function' ? next() : next);
    },
    print(write: () => void) {
      spinner.clear();
      write();
      spinner.render();
    },
    stop() {
      spinner.stop();
    },
    live: true,
  };
}
