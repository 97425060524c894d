import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validDe } from '../helpers/batch-data.js';
import { BIN, collectOutput, ensureBuilt } from '../helpers/built-cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
beforeAll(() => ensureBuilt());

let dir: string;
let privateTmp: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-output-paths-'));
  privateTmp = join(dir, 'tmp');
  mkdirSync(privateTmp);
  writeFileSync(file('in.csv'), csvOf(30));
});
const file = (name: string) => join(dir, name);
/** Rows with request columns only, so a run prints nothing on stderr but its summary. */
const csvOf = (rows: number) =>
  `countryCode,vatId\n${Array.from({ length: rows }, (_, i) => `DE,${validDe((i + 1) * 7919)}\n`).join('')}`;
const modeOf = (path: string) => statSync(path).mode & 0o777;

interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `bin/svc.js` with a private TMPDIR; `stdin` is written and closed, or kept open
 * when `keepStdinOpen`. `during` runs once the child started and may signal it.
 */
function svc(
  args: string[],
  options: {
    stdin?: string;
    keepStdinOpen?: boolean;
    env?: Record<string, string>;
    during?: (child: ReturnType<typeof spawn>) => Promise<void>;
  } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      NO_COLOR: '1',
      TMPDIR: privateTmp,
      SVC_BASE_URL: server().url,
      SVC_API_KEY: 'ak_demo_project',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  if (options.stdin !== undefined) child.stdin.write(options.stdin);
  if (!options.keepStdinOpen) child.stdin.end();
  const done = new Promise<Run>((resolve) => {
    child.once('close', (code, signal) => resolve({ code: code ?? signal ?? -1, ...output() }));
  });
  return (async () => {
    await options.during?.(child);
    return done;
  })();
}

/** One line on stderr, prefixed `svc: `. */
function oneLine(run: Run): string {
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc: /);
  return lines[0] as string;
}

describe('14.3 every output path is checked before a byte is written (exit 2, one line)', () => {
  it('audit export --out f --state f: refused, f untouched', async () => {
    writeFileSync(file('f'), 'precious');
    const run = await svc(['audit', 'export', '--out', 'f', '--state', 'f']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/the output and the state file are the same file \(f\)/);
    expect(readFileSync(file('f'), 'utf8')).toBe('precious');
  });

  it('batch --out f --state f: refused, nothing created, nothing sent', async () => {
    const run = await svc(['batch', 'in.csv', '--out', 'f', '--state', 'f']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/the results file and the state file are the same file/);
    expect(existsSync(file('f'))).toBe(false);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });

  it('batch --out in.csv, or --rejects through a hard link to it: refused, input unchanged', async () => {
    const input = readFileSync(file('in.csv'), 'utf8');
    const run = await svc(['batch', 'in.csv', '--out', 'in.csv']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/the input and the results file are the same file/);
    linkSync(file('in.csv'), file('alias.csv'));
    const linked = await svc(['batch', 'in.csv', '--out', 'o.ndjson', '--rejects', 'alias.csv']);
    expect(linked.code).toBe(2);
    expect(oneLine(linked)).toMatch(/the input and the rejects file are the same file/);
    expect(readFileSync(file('in.csv'), 'utf8')).toBe(input);
    expect(existsSync(file('o.ndjson'))).toBe(false);
  });

  it('audit sync --sign-key inside --dir: refused', async () => {
    mkdirSync(file('archive'));
    writeFileSync(file('archive/key.pem'), 'not read');
    const run = await svc(['audit', 'sync', '--dir', 'archive', '--sign-key', 'archive/key.pem']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/--sign-key \(archive\/key\.pem\) lies inside --dir \(archive\)/);
  });
});

describe('14.8 no output through a symlink; outputs created 0600 unless --file-mode', () => {
  it('batch --out through a symlink is refused and its target kept', async () => {
    writeFileSync(file('precious'), 'keep me');
    symlinkSync(file('precious'), file('link.ndjson'));
    const run = await svc(['batch', 'in.csv', '--out', 'link.ndjson', '--force']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/link\.ndjson is a symbolic link; refusing to write through it/);
    expect(readFileSync(file('precious'), 'utf8')).toBe('keep me');
  });

  it('results, rejects, state and exports are 0600; --file-mode 640 is honoured', async () => {
    const batch = await svc(['batch', 'in.csv', '--out', 'o.ndjson', '--rejects', 'r.csv']);
    expect(batch.code).toBe(0);
    for (const name of ['o.ndjson', 'r.csv', 'o.ndjson.state.json']) expect(modeOf(file(name))).toBe(0o600);
    server().admin.addAuditEvents({ count: 3, scope: 'project' });
    const exported = await svc(['audit', 'export', '--out', 'e.ndjson']);
    expect(exported.code).toBe(0);
    expect(modeOf(file('e.ndjson'))).toBe(0o600);
    const open = await svc(['audit', 'export', '--out', 'p.ndjson', '--file-mode', '640']);
    expect(open.code).toBe(0);
    expect(modeOf(file('p.ndjson'))).toBe(0o640);
    const bad = await svc(['audit', 'export', '--out', 'q.ndjson', '--file-mode', '999']);
    expect(bad.code).toBe(2);
    expect(oneLine(bad)).toMatch(/--file-mode must be an octal mode/);
  });
});

describe('14.12 batch - leaves no copy of stdin in TMPDIR, on every exit path', () => {
  const csv = csvOf(400);

  it('after success', async () => {
    const run = await svc(['batch', '-', '--out', 'o.ndjson'], { stdin: csv });
    expect(run.code).toBe(0);
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it('after a failure (server unreachable)', async () => {
    const run = await svc(['batch', '-', '--out', 'o.ndjson', '--max-retries', '0'], {
      stdin: csv,
      env: { SVC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(run.code).toBe(1);
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it('after SIGINT during the run (exit 75, state saved)', async () => {
    const run = await svc(['batch', '-', '--out', 'o.ndjson', '--strategy', 'single', '--concurrency', '1'], {
      stdin: csv,
      during: async (child) => {
        while (server().admin.stats().validationsProcessed < 20 && child.exitCode === null)
          await new Promise((resolve) => setImmediate(resolve));
        child.kill('SIGINT');
      },
    });
    expect(run.code).toBe(75);
    expect(readdirSync(privateTmp)).toEqual([]);
  });

  it('after SIGINT while stdin is still being read, and after a second SIGINT', async () => {
    const waitForCopy = async (child: ReturnType<typeof spawn>) => {
      while (readdirSync(privateTmp).length === 0 && child.exitCode === null)
        await new Promise((resolve) => setImmediate(resolve));
    };
    const once = await svc(['batch', '-', '--out', 'a.ndjson'], {
      stdin: csv.slice(0, 500),
      keepStdinOpen: true,
      during: async (child) => {
        await waitForCopy(child);
        child.kill('SIGINT');
      },
    });
    expect(once.code).toBe(130); // interrupted with nothing saved: the shell's own code
    expect(oneLine(once)).toMatch(/interrupted while reading the input; nothing was sent/i);
    expect(readdirSync(privateTmp)).toEqual([]);
    const twice = await svc(
      ['batch', '-', '--out', 'b.ndjson', '--strategy', 'single', '--concurrency', '1'],
      {
        stdin: csv,
        during: async (child) => {
          while (server().admin.stats().validationsProcessed < 5 && child.exitCode === null)
            await new Promise((resolve) => setImmediate(resolve));
          child.kill('SIGINT');
          child.kill('SIGINT');
        },
      },
    );
    expect([75, 130]).toContain(twice.code);
    expect(readdirSync(privateTmp)).toEqual([]);
  });
});

describe('15.8 existing files are never replaced unless this run owns them or --force', () => {
  it('audit export --out existing.ndjson: exit 2 naming the file and --force; --force replaces', async () => {
    writeFileSync(file('existing.ndjson'), 'precious\n');
    server().admin.addAuditEvents({ count: 3, scope: 'project' });
    const run = await svc(['audit', 'export', '--out', 'existing.ndjson']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toBe(
      "svc: existing.ndjson already exists and is not this run's output; use --force (option force) to replace it",
    );
    expect(readFileSync(file('existing.ndjson'), 'utf8')).toBe('precious\n');
    expect(existsSync(file('existing.ndjson.state.json'))).toBe(false);
    const forced = await svc(['audit', 'export', '--out', 'existing.ndjson', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file('existing.ndjson'), 'utf8')).not.toMatch(/precious/);
  });

  it('batch over its own earlier state needs --resume (or --force); --out or --rejects with data need --force', async () => {
    expect((await svc(['batch', 'in.csv', '--out', 'o.ndjson'])).code).toBe(0);
    const again = await svc(['batch', 'in.csv', '--out', 'o.ndjson']);
    expect(again.code).toBe(2);
    expect(oneLine(again)).toMatch(
      /state file o\.ndjson\.state\.json exists from an earlier run: use --resume/,
    );
    expect((await svc(['batch', 'in.csv', '--out', 'o.ndjson', '--resume'])).code).toBe(0);
    expect((await svc(['batch', 'in.csv', '--out', 'o.ndjson', '--force'])).code).toBe(0);
    writeFileSync(file('mine.csv'), 'precious\n');
    const rejects = await svc(['batch', 'in.csv', '--out', 'n.ndjson', '--rejects', 'mine.csv']);
    expect(rejects.code).toBe(2);
    expect(oneLine(rejects)).toMatch(/mine\.csv already exists .* use --force/);
    expect(readFileSync(file('mine.csv'), 'utf8')).toBe('precious\n');
  });

  it('--out /dev/stdout writes to the pipe for batch and export', async () => {
    const batch = await svc(['batch', 'in.csv', '--out', '/dev/stdout']);
    expect(batch.code).toBe(0);
    expect(batch.stdout.trim().split('\n')).toHaveLength(30);
    server().admin.addAuditEvents({ count: 3, scope: 'project' });
    const exported = await svc(['audit', 'export', '--out', '/dev/stdout']);
    expect(exported.code).toBe(0);
    expect(exported.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(3);
  });

  it('--out /dev/full fails with exit 1 and one line: no space left on device', async () => {
    const batch = await svc(['batch', 'in.csv', '--out', '/dev/full']);
    expect(batch.code).toBe(1);
    expect(oneLine(batch)).toBe('svc: cannot write /dev/full: no space left on device (ENOSPC)');
    server().admin.addAuditEvents({ count: 3, scope: 'project' });
    const exported = await svc(['audit', 'export', '--out', '/dev/full']);
    expect(exported.code).toBe(1);
    expect(oneLine(exported)).toBe('svc: cannot write /dev/full: no space left on device (ENOSPC)');
  });

  it('--state adir names the path (exit 2) for batch and export', async () => {
    mkdirSync(file('adir'));
    const batch = await svc(['batch', 'in.csv', '--out', 'o.ndjson', '--state', 'adir']);
    expect(batch.code).toBe(2);
    expect(oneLine(batch)).toBe('svc: state file adir is a directory, not a file');
    const exported = await svc(['audit', 'export', '--out', 'o.ndjson', '--state', 'adir']);
    expect(exported.code).toBe(2);
    expect(oneLine(exported)).toBe('svc: state file adir is a directory, not a file');
    expect(existsSync(file('o.ndjson'))).toBe(false);
  });

  it('webhooks listen --out adir is refused at start (exit 2)', async () => {
    mkdirSync(file('adir'));
    const run = await svc(['webhooks', 'listen', '--out', 'adir']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toBe('svc: adir is a directory, not a file');
  });

  it("audit sync refuses a foreign file where the run's file goes; --force replaces it", async () => {
    mkdirSync(file('archive'));
    writeFileSync(file('archive/audit-000001.ndjson'), 'not ours\n');
    const run = await svc(['audit', 'sync', '--dir', 'archive']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/archive\/audit-000001\.ndjson already exists and is not this run's output/);
    expect(readFileSync(file('archive/audit-000001.ndjson'), 'utf8')).toBe('not ours\n');
    expect((await svc(['audit', 'sync', '--dir', 'archive', '--force'])).code).toBe(0);
  });
});
