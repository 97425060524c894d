import type { CliIO } from './io.js';

/** A one-line progress display on stderr; silent unless stderr is a usable terminal. */
export interface Progress {
  update(text: string): void;
  stop(): void;
}

const SILENT: Progress = { update: () => {}, stop: () => {} };

/**
 * Starts an ora spinner when stderr is a TTY with a known, non-zero width (ora hangs on
 * 0-column terminals) and `--quiet` is off; otherwise progress is silent.
 */
export async function startProgress(io: CliIO, quiet: boolean, text: string): Promise<Progress> {
  if (quiet || !io.stderrIsTTY || (io.columns ?? 80) <= 0) return SILENT;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: io.stderr as NodeJS.WritableStream & { isTTY?: boolean } }).start();
  let last = 0;
  return {
    update(next: string) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      spinner.text = next;
    },
    stop() {
      spinner.stop();
    },
  };
}
