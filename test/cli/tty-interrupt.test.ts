import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { makeCsv } from '../helpers/batch-data.js';
import { ensureBuilt, spawnSvc } from '../helpers/built-cli.js';
import { PTY_UNAVAILABLE, type PtyRun, runInPty, screenLines } from '../helpers/pty.js';

// `svc` under a real pseudo-terminal (80 x 24): a spinner shows, stdin is a terminal, and Ctrl-C
// is a byte typed on the terminal, as for a user. See test/helpers/pty.ts.

const STOP_WITHIN_MS = 2000;
const EXPORT_EVENTS = 20_000;
const BATCH_ROWS = 20_000;

let work: string;
let serve: ChildProcess | undefined;
let baseUrl: string;
let csv: string;
const runs: PtyRun[] = [];

/** The env of a run; `profile` writes a saved profile first, so the config library loads. */
function envFor(dir: string, profile: boolean): Record<string, string> {
  const config = join(dir, 'config');
  if (profile) {
    mkdirSync(join(config, 'svc'), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'svc', 'config.json'),
      JSON.stringify({ profiles: { default: { 'max-retries': '2' } } }),
      { mode: 0o600 },
    );
  }
  return { XDG_CONFIG_HOME: config };
}

function start(args: string[], env: Record<string, string>, cwd: string): PtyRun {
  const run = runInPty(args, { env, cwd, columns: 80 });
  runs.push(run);
  return run;
}

beforeAll(async () => {
  if (PTY_UNAVAILABLE) return;
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-tty-'));
  csv = join(work, 'big.csv');
  writeFileSync(csv, makeCsv(BATCH_ROWS).text);
  serve = spawnSvc(['serve', '--port', '0', '--seed-audit-events', String(EXPORT_EVENTS)], {});
  baseUrl = await new Promise<string>((resolve, reject) => {
    serve?.stdout?.on('data', () => {
      const line = /listening on (http:\/\/\S+)/.exec((serve as ReturnType<typeof spawnSvc>).output().stdout);
      if (line?.[1]) resolve(line[1]);
    });
    serve?.once('exit', (code) => reject(new Error(`svc serve exited with ${code}`)));
  });
}, 180_000);

afterEach(() => {
  for (const run of runs.splice(0)) run.dispose();
});

afterAll(() => {
  if (serve && serve.exitCode === null) serve.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A long run of each command, the text its spinner shows, and its state file. */
const COMMANDS = {
  'audit export': (dir: string) => ({
    args: [
      ...['--base-url', baseUrl, '--api-key', DEMO.projectKey],
      ...[
        'audit',
        'export',
        '--from',
        '2000-01-01',
        '--page-size',
        '20',
        '--out',
        join(dir, 'events.ndjson'),
      ],
    ],
    spinner: /exporting: \d+ of \d+ events/,
    state: join(dir, 'events.ndjson.state.json'),
    hint: /interrupted: state saved to .*events\.ndjson\.state\.json; run the same command again to resume/,
  }),
  batch: (dir: string) => ({
    args: ['--sandbox', 'batch', csv, '--strategy', 'single', '--out', join(dir, 'x.csv')],
    spinner: /batch: [\d,]+ (\/ [\d,]+ )?rows/,
    state: join(dir, 'x.csv.state.json'),
    hint: /interrupted after row \d+; state saved to .*x\.csv\.state\.json; run again with --resume/,
  }),
} as const;

type CommandName = keyof typeof COMMANDS;
type Stop = 'Ctrl-C' | 'kill -INT' | 'kill -TERM';

let dirs = 0;
function freshDir(): string {
  const dir = join(work, `run-${++dirs}`);
  mkdirSync(dir);
  return dir;
}

/** Runs a command until its spinner shows progress, stops it, and reports what happened. */
async function interrupt(name: CommandName, stop: Stop, profile: boolean) {
  const dir = freshDir();
  const command = COMMANDS[name](dir);
  const run = start(command.args, envFor(dir, profile), dir);
  const pid = await run.pid();
  await run.waitFor(command.spinner);
  const sent = Date.now();
  if (stop === 'Ctrl-C') run.type('\x03');
  else process.kill(pid, stop === 'kill -INT' ? 'SIGINT' : 'SIGTERM');
  const code = await run.exit;
  return { code, ms: Date.now() - sent, text: run.text(), command };
}

describe.skipIf(PTY_UNAVAILABLE)('pty harness', () => {
  it('gives svc a terminal of 80 columns on stdin, stdout and stderr', async () => {
    const dir = freshDir();
    const script = join(dir, 'probe.cjs');
    writeFileSync(
      script,
      [
        'const t = (s) => String(Boolean(s.isTTY)) + ":" + String(s.columns ?? "-");',
        'process.stdout.write(["probe", t(process.stdin), t(process.stdout), t(process.stderr)].join(" ") + "\\n");',
      ].join('\n'),
    );
    // `--require` runs the probe inside the same node before svc prints its version.
    const run = runInPty(['--version'], { cwd: dir, env: { NODE_OPTIONS: `--require ${script}` } });
    runs.push(run);
    expect(await run.exit).toBe(0);
    expect(run.text()).toMatch(/probe true:- true:80 true:80/);
  });

  it('screenLines measures what the terminal shows, for table-width tests', async () => {
    const run = runInPty(['--help'], { columns: 80 });
    runs.push(run);
    expect(await run.exit).toBe(0);
    const { lines, widest } = screenLines(run.text());
    expect(lines[0]).toMatch(/^Usage: svc/);
    expect(widest).toBeGreaterThan(40);
    expect(widest).toBeLessThanOrEqual(80);
  });
});

describe.skipIf(PTY_UNAVAILABLE)(
  'Ctrl-C while a spinner shows stops within 2 s, saves state, prints the resume hint, exits 75',
  () => {
    it.each([
      ['audit export', false],
      ['audit export', true],
      ['batch', false],
      ['batch', true],
    ] as const)('%s (saved profile: %s)', async (name, profile) => {
      const { code, ms, text, command } = await interrupt(name, 'Ctrl-C', profile);
      expect(code).toBe(75);
      expect(ms).toBeLessThan(STOP_WITHIN_MS);
      expect(text).toMatch(command.hint);
      expect(existsSync(command.state)).toBe(true);
      expect(JSON.parse(readFileSync(command.state, 'utf8'))).toBeTypeOf('object');
    });
  },
);

describe.skipIf(PTY_UNAVAILABLE)(
  'kill -INT and kill -TERM on a terminal exit 75, not 130, also when the config library is loaded',
  () => {
    it.each([
      ['audit export', 'kill -INT'],
      ['audit export', 'kill -TERM'],
      ['batch', 'kill -INT'],
      ['batch', 'kill -TERM'],
    ] as const)('%s, %s', async (name, stop) => {
      const { code, ms, text, command } = await interrupt(name, stop, true);
      expect(code).toBe(75);
      expect(ms).toBeLessThan(STOP_WITHIN_MS);
      expect(text).toMatch(command.hint);
      expect(existsSync(command.state)).toBe(true);
    });
  },
);

describe.skipIf(PTY_UNAVAILABLE)('Ctrl-\\ quits at once while a spinner shows (SIGQUIT, 131)', () => {
  it('audit export', async () => {
    const dir = freshDir();
    const command = COMMANDS['audit export'](dir);
    const run = start(command.args, envFor(dir, true), dir);
    await run.waitFor(command.spinner);
    const sent = Date.now();
    run.type('\x1c');
    expect(await run.exit).toBe(128 + 3);
    expect(Date.now() - sent).toBeLessThan(STOP_WITHIN_MS);
  });
});

describe.skipIf(PTY_UNAVAILABLE)('a second interrupt exits at once with 130', () => {
  it('batch, kill -TERM then kill -INT (two signals of one kind may merge into one)', async () => {
    const dir = freshDir();
    const command = COMMANDS.batch(dir);
    const run = start(command.args, envFor(dir, false), dir);
    const pid = await run.pid();
    await run.waitFor(command.spinner);
    process.kill(pid, 'SIGTERM');
    process.kill(pid, 'SIGINT');
    expect(await run.exit).toBe(130);
  });
});

describe.skipIf(PTY_UNAVAILABLE)('token decode - on a terminal stops on the first Ctrl-C', () => {
  it('asks for the token, and one Ctrl-C ends the read with 130', async () => {
    const dir = freshDir();
    const run = start(['token', 'decode', '-'], envFor(dir, false), dir);
    await run.waitFor(/paste the token/);
    const sent = Date.now();
    run.type('\x03');
    expect(await run.exit).toBe(130);
    expect(Date.now() - sent).toBeLessThan(STOP_WITHIN_MS);
    expect(run.text()).toMatch(/svc: interrupted while reading stdin/);
  });

  const ID = '00000000-0000-4000-8000-0000000000aa';
  it('still decodes a token typed on the terminal and ended with Ctrl-D', async () => {
    const dir = freshDir();
    const run = start(['-o', 'json', 'token', 'decode', '-'], envFor(dir, false), dir);
    await run.waitFor(/paste the token/);
    const token = Buffer.from(JSON.stringify({ verificationId: ID })).toString('base64url');
    run.type(`${token}\n\x04`);
    expect(await run.exit).toBe(0);
    expect(run.text()).toContain(`"verificationId": "${ID}"`);
  });
});
