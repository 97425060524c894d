import { createInterface } from 'node:readline';
import { type Readable, Writable } from 'node:stream';
import { AbortError } from '../core/errors/error-classes.js';
import { escapeForTerminal } from './terminal-safe.js';

/** Options of {@link readHidden}. */
export interface HiddenPromptOptions {
  /** The terminal input (a TTY stream: readline switches it to raw mode while reading). */
  input: Readable;
  /** Where the prompt goes (stderr, so stdout stays clean). */
  output: Writable;
  /** The prompt, shown once the terminal no longer echoes. */
  prompt: string;
  /** Cancels the read (SIGINT/SIGTERM of the process). */
  signal?: AbortSignal | undefined;
}

/**
 * Reads one line from a terminal without showing it, as `sudo` and `gh auth login` do: readline
 * runs in terminal mode (raw input, its own line editing, Backspace works) but its echo goes to a
 * sink, so neither the text nor its length reaches the screen. Enter ends the line (an empty line
 * gives ''); Ctrl-D on an empty line gives ''. `signal` rejects with an {@link AbortError} and
 * nothing is kept; Ctrl-C is re-sent as the SIGINT the terminal would have sent (so it aborts
 * `signal`), or rejects at once when no `signal` is given.
 */
export function readHidden(options: HiddenPromptOptions): Promise<string> {
  const { input, output, prompt, signal } = options;
  return new Promise((resolve, reject) => {
    const sink = new Writable({
      write(_chunk, _encoding, done) {
        done();
      },
    });
    // Created before the prompt is shown: by then the terminal is raw and echoes nothing.
    const rl = createInterface({ input, output: sink, terminal: true, historySize: 0 });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      rl.close();
      output.write('\n');
      outcome();
    };
    const onAbort = () => finish(() => reject(new AbortError('interrupted: nothing was saved')));
    rl.once('line', (line) => finish(() => resolve(line)));
    rl.once('close', () => finish(() => resolve('')));
    // Raw mode turns Ctrl-C into a byte: hand it back to the process as the SIGINT the terminal
    // would have sent, so it ends like every other interrupted command (exit 130, nothing kept).
    rl.on('SIGINT', () => (signal ? process.kill(process.pid, 'SIGINT') : onAbort()));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // The prompt names a profile the user typed: shown escaped like every human line.
    output.write(escapeForTerminal(prompt));
  });
}
