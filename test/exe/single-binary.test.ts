import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { VERSION } from '../../src/version.js';
import { ROOT } from '../helpers/build.js';
import { collectOutput, ensureBuilt } from '../helpers/built-cli.js';
import { type BinRun, runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTlsFront, TEST_TLS, type TlsFront } from '../helpers/tls-front.js';
import { keepWineServer } from '../helpers/wine-server.js';
import { readTestWorkbook } from '../helpers/workbooks.js';

// The single executables of `npm run build:exe` (about half a minute of CPU: not part of `npm test`'s own
// build). Missing, they are skipped with the reason printed; in CI (CI=true), which builds them
// first, a missing binary or a missing Wine fails instead.
const LINUX = join(ROOT, 'dist-exe', 'svc-linux-x64');
const WINDOWS = join(ROOT, 'dist-exe', 'svc-win-x64.exe');
const HAS_WINE = spawnSync('wine', ['--version'], { stdio: 'ignore' }).status === 0;

/** Whether a suite can run; when not, says why (or fails under CI). */
function available(what: string, missing: string | undefined): boolean {
  if (missing === undefined) return true;
  if (process.env.CI === 'true') throw new Error(`${what}: ${missing}`);
  console.warn(`skipped: ${what}: ${missing}`);
  return false;
}

const NEEDS_BUILD = 'run npm run build:exe first';
const hasLinux = available(
  'the Linux single binary',
  existsSync(LINUX) ? undefined : `${LINUX} is missing (${NEEDS_BUILD})`,
);
const hasWindows = available(
  'svc.exe under Wine',
  !existsSync(WINDOWS)
    ? `${WINDOWS} is missing (${NEEDS_BUILD})`
    : HAS_WINE
      ? undefined
      : 'wine is not installed (apt install wine wine64)',
);

const work = mkdtempSync(join(tmpdir(), 'svc-exe-'));
// A home of its own: no profile or config of this machine changes an answer.
const env = { HOME: work };
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder of `work`, the current folder of one run (relative paths, files written). */
function folder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Both CLIs with the same arguments, each in a folder of its own holding `files`. */
async function both(args: string[], files: Record<string, Buffer | string> = {}) {
  const run = async (name: string, executable?: string) => {
    const cwd = folder(name);
    for (const [file, content] of Object.entries(files)) writeFileSync(join(cwd, file), content);
    const result = await runBin(args, { env, cwd, executable });
    return { ...result, cwd };
  };
  const tag = Math.random().toString(36).slice(2);
  return { node: await run(`node-${tag}`), exe: await run(`exe-${tag}`, LINUX) };
}

/** A run's output with what differs on every run (ids drawn at random, timestamps, progress) masked. */
const stable = (text: string) =>
  text
    // How many outcomes are still awaited when the wait starts depends on the webhooks' timing.
    .replace(/^waiting.*\n/gm, '')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');

const sameRun = (exe: BinRun, node: BinRun) =>
  expect({ code: exe.code, stdout: stable(exe.stdout), stderr: stable(exe.stderr) }).toEqual({
    code: node.code,
    stdout: stable(node.stdout),
    stderr: stable(node.stderr),
  });

beforeAll(() => ensureBuilt(), 180_000);

describe.runIf(hasLinux)('the Linux binary prints what bin/svc.js prints', () => {
  it.each(
    [['--version'], ['-V'], ['version'], ['--help'], ['help', 'reference'], ['batch', '--help']].map(
      (args) => [args.join(' '), args],
    ),
  )('svc %s', async (_name, args) => {
    const { node, exe } = await both(args);
    expect(node.code).toBe(0);
    expect(exe).toMatchObject({ code: 0, stdout: node.stdout, stderr: node.stderr });
  });

  // A V8 flag in NODE_OPTIONS (CI machines often set one) would make Node reject a code cache
  // made without it, with a warning on every run: the blob carries none.
  it('with a V8 flag in NODE_OPTIONS: the version and nothing on stderr', async () => {
    const run = await runBin(['--version'], {
      env: { ...env, NODE_OPTIONS: '--max-old-space-size=4096' },
      cwd: folder('node-options'),
      executable: LINUX,
    });
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('a usage error: the same line on stderr and exit 2, no stack trace', async () => {
    const { node, exe } = await both(['validate', 'DE']);
    expect(node.code).toBe(2);
    sameRun(exe, node);
    expect(exe.stderr).not.toMatch(/\n\s+at /);
  });
});

// The same checkout gives the same bytes (docs/single-binary.md): nothing of the machine that
// built them, such as the temporary folder the blob was made in, is inside.
describe.runIf(hasLinux && existsSync(WINDOWS))(
  'the binaries are reproducible: no path of the build machine inside',
  () => {
    it.each([LINUX, WINDOWS].map((file) => [basename(file), file]))('%s', (_name, file) => {
      const bytes = readFileSync(file);
      for (const path of [ROOT, join(tmpdir(), 'svc-exe-')]) expect(bytes.includes(path), path).toBe(false);
    });
  },
);

describe.runIf(hasLinux)('the Linux binary runs the --sandbox workflows like bin/svc.js', () => {
  it('validate', async () => {
    const { node, exe } = await both(['--sandbox', 'validate', 'DE', '136695976', '-o', 'json']);
    expect(JSON.parse(node.stdout)).toMatchObject({ outcome: 'VALID' });
    sameRun(exe, node);
  });

  it('batch of a CSV with --wait: the same rows out, the same rejects', async () => {
    const csv = readFileSync(join(ROOT, 'examples', 'data', 'customers.csv'));
    const args = ['--sandbox', 'batch', 'in.csv', '--out', 'out.csv', '--rejects', 'rejects.csv', '--wait'];
    const { node, exe } = await both(args, { 'in.csv': csv });
    expect(node.code).toBe(0);
    sameRun(exe, node);
    const out = (run: { cwd: string }, name: string) => stable(readFileSync(join(run.cwd, name), 'utf8'));
    expect(out(node, 'out.csv')).toMatch(/,completed,VALID,/);
    expect(out(exe, 'out.csv')).toBe(out(node, 'out.csv'));
    expect(out(exe, 'rejects.csv')).toBe(out(node, 'rejects.csv'));
  });

  // iconv-lite and exceljs are bundled inside: a Windows-1252 CSV (0x80 is the euro sign there,
  // a C1 control for Node's own decoder), written out as a workbook, then that workbook read back.
  it('a Windows-1252 CSV with ; and CRLF to .xlsx, and the .xlsx back to CSV', async () => {
    const text =
      'countryCode;vatId;companyName\r\nDE;DE136695976;Kühn € Söhne GmbH\r\nAT;ATU13585627;Œuvre\r\n';
    const files = { 'in.csv': iconv.encode(text, 'windows-1252') };
    const { node, exe } = await both(['--sandbox', 'batch', 'in.csv', '--out', 'out.xlsx', '--wait'], files);
    expect(node.code).toBe(0);
    sameRun(exe, node);
    const cells = async (cwd: string) => {
      const sheet = (await readTestWorkbook(join(cwd, 'out.xlsx'))).worksheets[0];
      return stable(JSON.stringify(sheet?.getSheetValues()));
    };
    expect(await cells(node.cwd)).toContain('Kühn € Söhne GmbH');
    expect(await cells(exe.cwd)).toBe(await cells(node.cwd));

    const again = await both(['--sandbox', 'batch', 'in.xlsx', '--out', 'out.csv', '--wait'], {
      'in.xlsx': readFileSync(join(exe.cwd, 'out.xlsx')),
    });
    expect(again.node.code).toBe(0);
    sameRun(again.exe, again.node);
    expect(readFileSync(join(again.exe.cwd, 'out.csv'), 'utf8')).toContain('Œuvre');
  });
});

describe.runIf(hasLinux)(
  'the Linux binary, interrupted, saves its state and exits 75; --resume finishes',
  () => {
    it('SIGINT during the wait of a --sandbox batch, then --resume', async () => {
      const cwd = folder('interrupt');
      writeFileSync(join(cwd, 'in.csv'), `countryCode,vatId\n${'DE,DE136695976\n'.repeat(2000)}`);
      const args = ['--sandbox', 'batch', 'in.csv', '--out', 'out.csv', '--wait'];
      const child = spawn(LINUX, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = collectOutput(child);
      const code = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve) => {
        child.stderr.on('data', () => {
          if (/waiting for \d+ completion/.test(output().stderr)) resolve();
        });
        void code.then(() => resolve());
      });
      child.kill('SIGINT');
      expect(await code, output().stderr).toBe(75);
      expect(output().stderr).toContain('state saved to out.csv.state.json; run again with --resume');
      const resumed = await runBin([...args, '--resume'], { env, cwd, executable: LINUX });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('batch: 2000 rows (completed:VALID 2000)');
      // The sandbox's webhooks take about 4 s for 2000 rows: the signal lands in the wait.
    }, 60_000);
  },
);

// docs/configuration.md promises the single executables trust a company CA as bin/svc.js does:
// --ca-file, SVC_CA_FILE and NODE_EXTRA_CA_CERTS (Node reads that one itself at start).
const server = useReferenceServer();
describe.runIf(hasLinux)(
  'the Linux single executable trusts the CA it is given, and only that (svc.exe: test/windows/trust.test.ts)',
  () => {
    let front: TlsFront;
    beforeAll(async () => {
      front = await startTlsFront(server().url);
    });
    afterAll(async () => {
      await front?.close();
    });
    const args = () => ['--base-url', front.url, '-o', 'json', 'validate', 'DE', '136695976'];
    const trusted = { SVC_API_KEY: DEMO.projectKey };

    it.runIf(hasLinux)(
      'svc-linux-x64: refused in words; accepted with --ca-file, SVC_CA_FILE, NODE_EXTRA_CA_CERTS, --use-system-ca',
      async () => {
        const run = (extra: string[], more: Record<string, string> = {}) =>
          runBin([...extra, ...args()], {
            env: { ...env, ...trusted, ...more },
            cwd: folder('tls-linux'),
            executable: LINUX,
          });
        const refused = await run([]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/not trusted .*add your CA with --ca-file or NODE_EXTRA_CA_CERTS/);
        for (const accepted of [
          await run(['--ca-file', TEST_TLS.caFile]),
          await run([], { SVC_CA_FILE: TEST_TLS.caFile }),
          await run([], { NODE_EXTRA_CA_CERTS: TEST_TLS.caFile }),
          // The system store through NODE_OPTIONS (the binary is Node 22): on Linux, OpenSSL's store, which SSL_CERT_FILE names.
          await run([], { NODE_OPTIONS: '--use-system-ca', SSL_CERT_FILE: TEST_TLS.caFile }),
        ]) {
          expect(accepted.code, accepted.stderr).toBe(0);
          expect(JSON.parse(accepted.stdout)).toMatchObject({ outcome: expect.any(String) });
        }
        expect((await run(['--ca-file', TEST_TLS.otherCaFile])).code).toBe(1);
      },
      60_000,
    );
  },
);

describe.runIf(hasLinux)('the Linux binary serves the console and the widget from inside itself', () => {
  it('svc serve, started in an empty folder, answers the built browser files', async () => {
    const child = spawn(LINUX, ['serve', '--port', '0'], {
      cwd: folder('serve'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(output().stdout);
          if (match) resolve(match[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`svc serve exited ${code}: ${output().stderr}`)));
      });
      for (const [path, file] of [
        ['/__console/assets/console.js', 'console.js'],
        ['/__console/assets/console.css', 'console.css'],
        ['/__widget.js', 'widget.js'],
      ] as const) {
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(200);
        expect(
          Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(ROOT, 'dist', 'assets', file))),
          path,
        ).toBe(true);
      }
      expect(output().stderr).not.toContain('ExperimentalWarning');
    } finally {
      child.kill();
    }
  });
});

describe.runIf(hasWindows)('svc.exe under Wine prints what bin/svc.js prints, from any folder', () => {
  // Wine's own state, private to this file and removed after it (its wineserver too).
  const prefix = join(work, 'wine');
  // Wine maps Unix file names to Windows ones through the locale's charset: UTF-8, as Linux has them.
  const wineEnv = {
    ...env,
    PATH: process.env.PATH ?? '',
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    LANG: 'C.UTF-8',
  };

  // A download folder as Windows users have them: spaces, non-ASCII letters, an apostrophe, and
  // the name a browser gives a second download.
  const downloaded = join(work, "Jörg Müller's Downloads", 'svc-win-x64 (1).exe');

  /** Runs svc.exe in `cwd`; a Windows process under Wine needs files for stdio, not pipes. */
  function wine(exe: string, args: string[], cwd: string): BinRun {
    const out = join(cwd, 'stdout.txt');
    const err = join(cwd, 'stderr.txt');
    const fds = [openSync(out, 'w'), openSync(err, 'w')];
    try {
      const { status } = spawnSync('wine', [exe, ...args], {
        cwd,
        env: wineEnv,
        stdio: ['ignore', ...fds],
      });
      return { code: status, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  }

  beforeAll(() => {
    mkdirSync(prefix, { recursive: true });
    keepWineServer(wineEnv);
    // Node refuses to start on Wine's default Windows version.
    const made = spawnSync('wine', ['winecfg', '-v', 'win10'], { env: wineEnv, stdio: 'ignore' });
    expect(made.status).toBe(0);
    mkdirSync(dirname(downloaded));
    copyFileSync(WINDOWS, downloaded);
  }, 180_000);
  afterAll(() => {
    spawnSync('wineserver', ['-k'], { env: wineEnv, stdio: 'ignore' });
  });

  it.each([['--version'], ['--help']])(
    'svc.exe %s',
    async (arg) => {
      const node = await runBin([arg], { env });
      expect(node.code).toBe(0);
      const expected = { code: 0, stdout: node.stdout, stderr: '' };
      expect(wine(WINDOWS, [arg], folder(`wine${arg}`))).toEqual(expected);
      expect(wine(downloaded, [arg], folder(`wine-downloaded${arg}`))).toEqual(expected);
    },
    60_000,
  );
});
