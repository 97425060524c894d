import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCsv, rowsOf } from '../helpers/batch-data.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { collectOutput } from '../helpers/built-cli.js';

/** The built package, as an application imports it. */
const LIBRARY = pathToFileURL(join(ROOT, 'dist/index.js')).href;
const NODE_JOBS = pathToFileURL(join(ROOT, 'dist/node.js')).href;
const SERVER = pathToFileURL(join(ROOT, 'dist/server/index.js')).href;

/**
 * The whole application: the library only (no CLI), a resumable file-to-file batch run. The
 * arguments are the base URL, the input, the output and whether to resume.
 */
const SCRIPT = `
import { SvcClient } from ${JSON.stringify(LIBRARY)};
import { runBatchFile } from ${JSON.stringify(NODE_JOBS)};
const [baseUrl, input, output, resume] = process.argv.slice(1);
const client = new SvcClient({ baseUrl, apiKey: 'ak_demo_project' });
const result = await runBatchFile(client.tax, {
  input: { path: input },
  output: { path: output },
  resume: { continue: resume === 'resume' },
  send: { chunkSize: 25, concurrency: 2 },
});
await client.close();
process.stdout.write(JSON.stringify(result));
`;

type ReferenceServer = {
  url: string;
  close(): Promise<void>;
  admin: { stats(): { validationsProcessed: number }; reset(): void };
};

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  const { createReferenceServer } = (await import(SERVER)) as {
    createReferenceServer(options?: { port?: number }): Promise<ReferenceServer>;
  };
  server = await createReferenceServer({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-file-crash-'));
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runScript(args: string[]): ChildProcess & { stdout_: () => string } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, server.url, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { stdout_: () => string };
  const output = collectOutput(child);
  child.stdout_ = () => `${output().stdout}${output().stderr}`;
  return child;
}

/** Resolves with the exit code, or the signal name when the process was killed. */
function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve(signal ?? code ?? -1));
  });
}

describe('a library-only batch file run killed with SIGKILL resumes with every row processed exactly once', () => {
  it('10,000 rows: killed mid-run, resumed; the server validated each row once; results equal a clean run', async () => {
    server.admin.reset();
    const input = join(dir, 'in.csv');
    const out = join(dir, 'out.ndjson');
    const { text, kinds } = makeCsv(10_000);
    writeFileSync(input, text);
    const expected = kinds.filter((k) => k !== 'structural').length;
    const killAfter = 3_000;

    const child = runScript([input, out, 'fresh']);
    while (server.admin.stats().validationsProcessed < killAfter && child.exitCode === null) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.kill('SIGKILL');
    expect(await exited(child)).toBe('SIGKILL');
    const atKill = server.admin.stats().validationsProcessed;
    expect(atKill).toBeGreaterThanOrEqual(killAfter);
    expect(atKill).toBeLessThan(expected);

    const resumed = runScript([input, out, 'resume']);
    const code = await exited(resumed);
    expect(code, resumed.stdout_()).toBe(0);
    expect(JSON.parse(resumed.stdout_())).toMatchObject({ rowsDone: 10_000, resumed: true });
    expect(server.admin.stats().validationsProcessed).toBe(expected);

    // An uninterrupted run of the same input replays every key: the same results, nothing new.
    const clean = join(dir, 'clean.ndjson');
    const again = runScript([input, clean, 'fresh']);
    expect(await exited(again)).toBe(0);
    expect(server.admin.stats().validationsProcessed).toBe(expected);
    expect(rowsOf(out)).toHaveLength(10_000);
    expect(rowsOf(out)).toEqual(rowsOf(clean));
    expect(readFileSync(out).equals(readFileSync(clean))).toBe(true);
  }, 120_000);
});
