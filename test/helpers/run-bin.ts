import { spawn } from 'node:child_process';
import { BIN, collectOutput } from './built-cli.js';

/** What a run of the built `bin/svc.js` produced. */
export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `node bin/svc.js ...args` to its end with only the given environment (plus
 * PATH, HOME and NO_COLOR): no `SVC_*` variable of the machine leaks in. Asynchronous, so a
 * server in the test process keeps answering. Call `ensureBuilt()` first. `bin`: another copy of
 * `bin/svc.js` to run (default the project's); `executable`: a single executable of `svc`
 * (`npm run build:exe`) to run instead of Node.
 */
export function runBin(
  args: readonly string[],
  options: {
    env?: Record<string, string>;
    input?: string;
    cwd?: string;
    bin?: string;
    executable?: string;
  } = {},
): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const [command, ...before] = options.executable
      ? [options.executable]
      : [process.execPath, options.bin ?? BIN];
    const child = spawn(command as string, [...before, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...output() }));
    child.stdin.end(options.input ?? '');
  });
}

/** The non-empty lines of a text. */
export const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
