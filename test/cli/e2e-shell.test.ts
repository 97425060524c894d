import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { collectOutput } from '../helpers/built-cli.js';

// Few, slow-ish runs of the built binary; everything else about the CLI is tested in-process.
const BIN = join(ROOT, 'bin', 'svc.js');
const SECRET = 'ak_secret_value_1234567890';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let work: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    XDG_CONFIG_HOME: join(work, 'config'),
    ...extra,
  };
  for (const name of ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_PROFILE', 'SVC_OUTPUT']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function svc(
  args: string[],
  options: { input?: string; env?: Record<string, string>; node?: string[] } = {},
) {
  return new Promise<BinRun>((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.node ?? []), BIN, ...args], {
      cwd: work,
      env: baseEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = collectOutput(child);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...output() }));
    child.stdin.end(options.input ?? '');
  });
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('node bin/svc.js: help, version and usage errors', () => {
  it('--help lists the commands and exits 0', async () => {
    const run = await svc(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['validate', 'precheck', 'config', 'serve']) expect(run.stdout).toContain(command);
  });

  it('--version prints the package version', async () => {
    expect(await svc(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('an unknown option exits 2 with one line on stderr', async () => {
    const run = await svc(['--no-such-option']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual(["svc: unknown option '--no-such-option'"]);
    expect(run.stdout).toBe('');
  });
});

describe('node bin/svc.js --sandbox ignores the key variables of its environment', () => {
  it('audit list exits 0 with SVC_AUDIT_API_KEY set to another key', async () => {
    const run = await svc(['--sandbox', '-o', 'json', 'audit', 'list'], {
      env: { SVC_AUDIT_API_KEY: 'ak_other', SVC_API_KEY: 'ak_other' },
    });
    expect(run.stderr).toMatch(/^page 0: /);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('content');
  });
});

describe('svc --help loads no heavy dependency (undici, zod, conf, ora)', () => {
  // A resolve hook records every module the process loads.
  async function modulesLoadedBy(args: string[]): Promise<string[]> {
    const dir = mkdtempSync(join(work, 'trace-'));
    const trace = join(dir, 'trace.txt');
    writeFileSync(trace, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      [
        "import { appendFileSync } from 'node:fs';",
        'let file;',
        'export function initialize(data) { file = data.file; }',
        'export async function resolve(specifier, context, next) {',
        '  const result = await next(specifier, context);',
        "  appendFileSync(file, result.url + '\\n');",
        '  return result;',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      [
        "import { register } from 'node:module';",
        `register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { file: ${JSON.stringify(trace)} } });`,
      ].join('\n'),
    );
    const run = await svc(args, { node: ['--import', pathToFileURL(join(dir, 'register.mjs')).href] });
    expect(run.code).toBe(0);
    return lines(readFileSync(trace, 'utf8'));
  }

  const heavy = /\/node_modules\/(undici|zod|conf|ora)\//;

  it('svc help (rendered by commander from the definitions)', async () => {
    const loaded = await modulesLoadedBy(['help']);
    expect(loaded.some((url) => url.includes('/dist/cli/'))).toBe(true);
    expect(loaded.filter((url) => heavy.test(url))).toEqual([]);
  });

  it('--help into a pipe (the help cached at build time): no CLI module at all', async () => {
    const loaded = await modulesLoadedBy(['--help']);
    expect(loaded.filter((url) => url.includes('/dist/') || url.includes('/node_modules/'))).toEqual([]);
  });

  // `config path` no longer opens the store (it must work when the file is broken): `list` does.
  it('(control) svc config list does load conf, so the trace sees dependencies', async () => {
    const loaded = await modulesLoadedBy(['config', 'list']);
    expect(loaded.some((url) => url.includes('/node_modules/conf/'))).toBe(true);
  });
});

describe('svc serve --port 0: listening line first, fixture keys, clean stop on SIGTERM', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves the reference API until SIGTERM, then exits 0', async () => {
    const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: work, env: baseEnv() });
    child = proc;
    let stdout = '';
    const firstLine = await new Promise<string>((resolve, reject) => {
      proc.stdout?.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      proc.on('error', reject);
      proc.on('exit', (code) => reject(new Error(`svc serve exited early with ${code}`)));
    });
    expect(firstLine).toMatch(/^svc reference server listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = firstLine.slice('svc reference server listening on '.length);

    const stats = await fetch(`${url}/__admin/stats`);
    expect(stats.status).toBe(200);
    expect(stats.headers.get('content-type')).toBe('application/json');
    expect(await stats.json()).toMatchObject({ requestsByRoute: expect.any(Object) });

    const tax = async (key?: string) =>
      fetch(`${url}/taxvalidation/v1/validations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
        body: JSON.stringify({ countryCode: 'DE', rawValue: 'DE136695976' }),
      });
    for (const [key, status] of [
      [undefined, 401],
      [DEMO.expiredKey, 403],
      [DEMO.lockedKey, 402],
    ] as const) {
      const res = await tax(key);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('request-id')).toBeTruthy();
      expect(await res.json()).toMatchObject({
        status,
        title: expect.any(String),
        detail: expect.any(String),
      });
    }
    expect(stdout).toContain(DEMO.projectKey);

    const exited = new Promise<number | null>((resolve) => {
      proc.removeAllListeners('exit');
      proc.on('exit', (code) => resolve(code));
    });
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('printf KEY | svc config set api-key writes a 0600 file; nothing prints the whole key', () => {
  it('stores the key from stdin and shows it masked', async () => {
    const env = { XDG_CONFIG_HOME: join(work, 'config-stdin') };
    const set = await svc(['config', 'set', 'api-key'], { input: SECRET, env });
    expect(set.code).toBe(0);
    const file = join(work, 'config-stdin', 'svc', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(SECRET);
    const list = await svc(['config', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('ak_secr...7890');
    for (const run of [set, list]) expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('--debug against a running server never prints the key', async () => {
    const { createReferenceServer } = await import('../../src/server/index.js');
    const server = await createReferenceServer();
    try {
      const ok = await svc([
        '--debug',
        '--base-url',
        server.url,
        '--api-key',
        TEST_KEY,
        'validate',
        'DE',
        '136695976',
      ]);
      expect(ok.code).toBe(0);
      expect(ok.stderr).toContain('[debug] HTTP POST');
      const failed = await svc(['--debug', '--base-url', server.url, 'validate', 'DE', '136695976'], {
        env: { SVC_API_KEY: DEMO.expiredKey },
      });
      expect(failed.code).toBe(1);
      for (const [run, key] of [
        [ok, TEST_KEY],
        [failed, DEMO.expiredKey],
      ] as const) {
        expect(run.stdout + run.stderr).not.toContain(key);
      }
    } finally {
      await server.close();
    }
  });
});
