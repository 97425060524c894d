import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { NODE_BINARIES, NODE_VERSION } from '../../scripts/node-binaries.js';
import { ROOT } from './build.js';
import { keepWineServer } from './wine-server.js';

/**
 * The Wine harness: runs the built CLI as a Windows program (Windows Node, or `svc.exe`) under
 * Debian's Wine. Every workaround for what Wine lacks lives here, never in the product.
 */

/** The pinned Windows Node (`node scripts/node-binaries.js win` fetches it; `.ci/run` does). */
export const WINDOWS_NODE = join(
  ROOT,
  '.cache',
  'node',
  `${NODE_BINARIES.win.pkg}-${NODE_VERSION}`,
  NODE_BINARIES.win.bin,
);

/** The preload that defers undici's `setKeepAlive` to after connect (see the file for why). */
const KEEPALIVE_PRELOAD = join(ROOT, 'test', 'windows', 'wine-keepalive.cjs');

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function missingReason(): string | undefined {
  if (!hasCommand('wine')) return 'wine not found (apt install wine wine64): Windows suite skipped';
  if (!readable(WINDOWS_NODE))
    return `Windows Node not found at ${WINDOWS_NODE} (node scripts/node-binaries.js win): Windows suite skipped`;
  return undefined;
}

function readable(path: string): boolean {
  try {
    closeSync(openSync(path, 'r'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the Windows suite cannot run here, or undefined when it can. In CI (`CI=true`) a missing
 * Wine or Windows Node is an error, not a skip: `.ci/run` installs both.
 */
export const wineMissing: string | undefined = missingReason();

if (wineMissing) {
  if (process.env.CI === 'true') throw new Error(`CI=true and ${wineMissing.replace(/: .*$/, '')}`);
  console.warn(wineMissing);
}

/**
 * Time a Wine test may take: a Windows process starts in about a second alone, but several under
 * one wineserver while the rest of the suite keeps both cores busy take many times that.
 */
export const WINE_TEST_TIMEOUT = 120_000;

/** A Linux path as Windows programs under Wine see it: drive `Z:` is `/`. */
export function winPath(path: string): string {
  return `Z:${path.replaceAll('/', '\\')}`;
}

/**
 * The program that plays `svc` on Windows: its Linux path and the arguments before the CLI's own.
 * The Wine suite runs once per kind ({@link nodeSvc}, {@link exeSvc}).
 */
export interface SvcCommand {
  /** Shown in test names: `node.exe bin/svc.js` or `svc.exe`. */
  label: string;
  /** The Windows executable, as a Linux path. */
  program: string;
  /** Arguments that come before svc's own (`bin\svc.js` for Node). */
  prefix: string[];
}

/** `node.exe <project>\bin\svc.js ...args`: the built CLI under Windows Node. */
export function nodeSvc(): SvcCommand {
  return {
    label: 'node.exe bin/svc.js',
    program: WINDOWS_NODE,
    prefix: [winPath(join(ROOT, 'bin', 'svc.js'))],
  };
}

/** `svc.exe ...args`: a single executable (the exe helper's `dist-exe/svc-win-x64.exe`). */
export function exeSvc(path = join(ROOT, 'dist-exe', 'svc-win-x64.exe')): SvcCommand {
  return { label: 'svc.exe', program: path, prefix: [] };
}

/** Why the svc.exe variant of the Windows suite cannot run here, or undefined when it can. */
export const exeMissing: string | undefined = readable(exeSvc().program)
  ? undefined
  : `${exeSvc().program} not built (npm run build:exe): svc.exe variant of the Windows suite skipped`;

if (!wineMissing && exeMissing) console.warn(exeMissing);

/** What a Windows run ended with. */
export interface WineRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link WinePrefix.run}. */
export interface WineRunOptions {
  /** Variables for the Windows process, beside the harness's own (no `SVC_*` of this machine leaks in). */
  env?: Record<string, string>;
  /** Text on standard input (from a file, see below). Default: empty. */
  input?: string;
  /** Working folder, as a Linux path. Default: the prefix's scratch folder. */
  cwd?: string;
  /** Called with the Linux process once it started (to interrupt it). */
  started?: (pid: number) => void;
}

/** One private Wine installation for a test file, and the way to run Windows programs in it. */
export interface WinePrefix {
  /** The WINEPREFIX folder. */
  readonly prefix: string;
  /** A scratch folder beside it, for the test's files. */
  readonly scratch: string;
  /** Runs `program ...args` under Wine to its end. */
  exec(program: string, args: readonly string[], options?: WineRunOptions): Promise<WineRun>;
  /** Runs `svc ...args` as `command` says. */
  svc(command: SvcCommand, args: readonly string[], options?: WineRunOptions): Promise<WineRun>;
  /** The `%APPDATA%` folder of the prefix's user, as a Linux path. */
  appData(): string;
}

let runs = 0;

function wineEnv(prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    WINEPREFIX: prefix,
    // Wine's own debug channels write to stderr and would mix with svc's lines.
    WINEDEBUG: '-all',
    // Without TZ, Wine 8 maps the machine's zone to one of its own (Atlantic/Reykjavik here).
    TZ: 'UTC',
    NO_COLOR: '1',
    // Node under Wine takes the preload through NODE_OPTIONS, so svc.exe gets it the same way.
    NODE_OPTIONS: `--require ${winPath(KEEPALIVE_PRELOAD)}`,
    ...extra,
  };
}

/**
 * Creates a private WINEPREFIX under the OS temp folder before the file's tests (Windows 10
 * mode: Node 22 refuses to start on the Windows 7 that Wine 8 plays by default) and removes it,
 * with its wineserver, after them. About 7 s per file.
 */
export function useWinePrefix(): () => WinePrefix {
  let state: WinePrefix | undefined;
  beforeAll(() => {
    if (wineMissing) return;
    const base = mkdtempSync(join(tmpdir(), 'svc-wine-'));
    const prefix = join(base, 'prefix');
    const scratch = join(base, 'files');
    execFileSync('mkdir', ['-p', scratch, prefix]);
    keepWineServer(wineEnv(prefix));
    execFileSync('wine', ['winecfg', '-v', 'win10'], { env: wineEnv(prefix), stdio: 'ignore' });
    state = makePrefix(prefix, scratch);
  }, 120_000);
  afterAll(() => {
    if (!state) return;
    spawnSync('wineserver', ['-k'], { env: wineEnv(state.prefix), stdio: 'ignore' });
    rmSync(join(state.prefix, '..'), { recursive: true, force: true });
  }, 60_000);
  return () => {
    if (!state) throw new Error(wineMissing ?? 'Wine prefix not created');
    return state;
  };
}

function makePrefix(prefix: string, scratch: string): WinePrefix {
  const exec = (program: string, args: readonly string[], options: WineRunOptions = {}) =>
    new Promise<WineRun>((resolve, reject) => {
      // Node under Wine fails with EBADF when its stdio are Unix pipes: files work, so the
      // input and both outputs go through files.
      const id = `${process.pid}-${++runs}`;
      const inFile = join(scratch, `.stdin-${id}`);
      const outFile = join(scratch, `.stdout-${id}`);
      const errFile = join(scratch, `.stderr-${id}`);
      writeFileSync(inFile, options.input ?? '');
      const fds = [openSync(inFile, 'r'), openSync(outFile, 'w'), openSync(errFile, 'w')];
      const child = spawn('wine', [program, ...args], {
        cwd: options.cwd ?? scratch,
        env: wineEnv(prefix, options.env),
        stdio: fds,
      });
      for (const fd of fds) closeSync(fd);
      if (child.pid !== undefined) options.started?.(child.pid);
      child.on('error', reject);
      child.on('close', (code) => {
        // The files are gone when the prefix was removed under a run that outlived its test.
        const text = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
        const run = { code, stdout: text(outFile), stderr: text(errFile) };
        for (const file of [inFile, outFile, errFile]) rmSync(file, { force: true });
        resolve(run);
      });
    });
  return {
    prefix,
    scratch,
    exec,
    svc: (command, args, options) => exec(command.program, [...command.prefix, ...args], options),
    appData: () => join(prefix, 'drive_c', 'users', userInfo().username, 'AppData', 'Roaming'),
  };
}
