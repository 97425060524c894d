import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Entry scripts of the installed tools, run with this Node (no shell, no npx lookup). */
export const TOOLS = {
  prism: join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'),
  redocly: join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'),
  openapiTypescript: join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
  tsc: join(ROOT, 'node_modules/typescript/bin/tsc'),
} as const;

/** Runs a tool's entry script with this Node; resolves with its output even when it exits non-zero. */
export async function runTool(
  script: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], {
      cwd: options.cwd ?? ROOT,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        NO_COLOR: '1',
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A private temp directory for this test file, removed after it; the document written into it. */
export function useDocumentFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2), { mode: 0o600 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, file };
}

/** A loopback port that was free a moment ago (Prism takes a port number, not 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A running Prism (proxy or mock) and how to stop it. */
export interface RunningPrism {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `prism <args> --port <free port> --host 127.0.0.1` and resolves once it listens. Prism 5
 * takes many seconds to start on a busy machine: start it once per test file.
 */
export async function startPrism(args: string[], startTimeoutMs = 150_000): Promise<RunningPrism> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [TOOLS.prism, ...args, '--port', String(port), '--host', '127.0.0.1'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`Prism did not start:\n${output}`)), startTimeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          ready();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`Prism exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  // Keep draining its log so the pipe never fills up.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}`, stop };
}
