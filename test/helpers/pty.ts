import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { ROOT } from './build.js';
import { BIN } from './built-cli.js';

/**
 * Runs `svc` under a real pseudo-terminal, through util-linux `script` (present on every Linux
 * CI image). node-pty was the first choice but needs a native build whose Node headers come from
 * nodejs.org, not the npm registry, so `npm ci` on a fresh offline-from-GitHub machine fails.
 *
 * `script -qfec CMD /dev/null` gives CMD a new session whose controlling terminal is the pty:
 * bytes written to our pipe reach the pty master, so `\x03` is a real Ctrl-C (the terminal's line
 * discipline turns it into SIGINT for the foreground process group), and `-e` hands back the
 * child's exit status (128 + N when a signal N killed it).
 */

/** Why pty tests cannot run here, or undefined when they can. */
export const PTY_UNAVAILABLE: string | undefined = (() => {
  if (process.platform !== 'linux') return `needs util-linux script (platform ${process.platform})`;
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.error || !/util-linux/.test(`${probe.stdout}${probe.stderr}`))
    return 'util-linux script is not installed';
  return undefined;
})();

/** ANSI escape sequences (colours, cursor moves, ora's synchronised-output marks). */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]/g;

/** Terminal text without escape sequences and carriage returns. */
export function plain(text: string): string {
  return text.replace(ANSI, '').replace(/\r/g, '');
}

/**
 * The lines a terminal shows for `text`, and how wide the widest is (in code points; table
 * tests use ASCII or box-drawing characters, one column each). For a table-width test:
 *
 *   const run = runInPty(['--sandbox', 'audit', 'list'], { columns: 80 });
 *   expect(await run.exit).toBe(0);
 *   expect(screenLines(run.text()).widest).toBeLessThanOrEqual(80);
 */
export function screenLines(text: string): { lines: string[]; widest: number } {
  const lines = plain(text)
    .split('\n')
    .filter((l) => !l.startsWith('svc-pty-pid:'));
  return { lines, widest: Math.max(0, ...lines.map((l) => [...l].length)) };
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** A `svc` process on a pseudo-terminal. */
export interface PtyRun {
  /** Everything the terminal showed so far (stdout and stderr share it), raw. */
  raw(): string;
  /** The same without escape sequences. */
  text(): string;
  /** Types on the terminal (e.g. `\x03` for Ctrl-C, `\x1c` for Ctrl-\). */
  type(keys: string): void;
  /** The pid of the `svc` process itself (not of `script`). */
  pid(): Promise<number>;
  /** Resolves when the plain text matches; rejects after `timeoutMs` with what was shown. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Exit status of `svc` as the terminal's shell sees it (128 + N for signal N). */
  exit: Promise<number>;
  /** Kills `script` and `svc` if still running. */
  dispose(): void;
}

/** Options of {@link runInPty}. */
export interface PtyOptions {
  /** Environment of `svc` (PATH and HOME are added). */
  env?: Record<string, string>;
  /** Working directory. Default: the project root. */
  cwd?: string;
  /** Terminal width. Default 80. */
  columns?: number;
  /** Terminal height. Default 24. */
  rows?: number;
}

/** Starts `node bin/svc.js ...args` on a fresh pty of the given size. */
export function runInPty(args: readonly string[], options: PtyOptions = {}): PtyRun {
  const columns = options.columns ?? 80;
  const rows = options.rows ?? 24;
  // The pid line comes first, then exec: the pid printed is svc's own.
  const command = [
    `stty cols ${columns} rows ${rows}`,
    'echo "svc-pty-pid:$$"',
    `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`,
  ].join('; ');
  const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SHELL: '/bin/sh',
      TERM: 'xterm-256color',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  const watchers = new Set<() => void>();
  // A streaming decoder per stream: a character split across two reads (a table's "…") stays whole.
  const onOutput = () => {
    const decoder = new TextDecoder('utf-8');
    return (chunk: Buffer) => {
      raw += decoder.decode(chunk, { stream: true });
      for (const watcher of watchers) watcher();
    };
  };
  child.stdout?.on('data', onOutput());
  child.stderr?.on('data', onOutput());
  const exit = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const watcher of watchers) watcher();
      resolve(code ?? (signal ? 128 + 15 : -1));
    });
  });

  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = plain(raw).match(pattern);
        if (match) {
          done();
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`svc ended before ${pattern} showed; terminal:\n${plain(raw)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${pattern} did not show within ${timeoutMs} ms; terminal:\n${plain(raw)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });

  return {
    raw: () => raw,
    text: () => plain(raw),
    type: (keys) => {
      child.stdin?.write(keys);
    },
    pid: async () => Number((await waitFor(/svc-pty-pid:(\d+)/))[1]),
    waitFor,
    exit,
    dispose: () => {
      const pid = /svc-pty-pid:(\d+)/.exec(raw)?.[1];
      if (pid && child.exitCode === null) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
