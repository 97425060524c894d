import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Where the build under test lives: the snapshot bench/run.js made (SVC_BENCH_ROOT), else the
 * repository (bench/lib/../..).
 */
export const ROOT = process.env.SVC_BENCH_ROOT || fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI, run with `node`. */
export const SVC_BIN = join(ROOT, 'bin', 'svc.js');

const READY = /^svc reference server listening on (http:\/\/\S+)$/;

/**
 * A reference server in its own process (`svc serve --port 0`), so its CPU and memory never mix
 * with the code being measured.
 * @typedef {{ url: string, pid: number, admin: (path: string, body?: unknown) => Promise<any>, stop: () => Promise<void> }} BenchServer
 */

/**
 * Spawns `node <args>` and waits for its first stdout line to match `ready` (group 1 = the URL).
 * @param {string[]} args
 * @param {RegExp} ready
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
export async function spawnListening(args, ready) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const onExit = (code) =>
      reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    child.once('exit', onExit);
    lines.once('line', (line) => {
      child.off('exit', onExit);
      const match = ready.exec(line.trim());
      if (match) resolve(match[1]);
      else reject(new Error(`unexpected first line from node ${args.join(' ')}: ${line}`));
      // Keep draining so a full pipe never blocks the server.
      lines.on('line', () => {});
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  return { url, pid: child.pid ?? 0, stop };
}

/**
 * @param {{ seedAuditEvents?: number, nodeArgs?: string[] }} [options]
 * @returns {Promise<BenchServer>}
 */
export async function startServer(options = {}) {
  const args = [
    ...(options.nodeArgs ?? []),
    SVC_BIN,
    'serve',
    '--port',
    '0',
    '--seed-audit-events',
    String(options.seedAuditEvents ?? 0),
  ];
  const { url, pid, stop } = await spawnListening(args, READY);

  /** POSTs an admin request (GET for `/stats` and `/requests`) and returns its JSON answer. */
  const admin = async (path, body) => {
    const get = path === '/stats' || path === '/requests';
    const res = await fetch(new URL(`/__admin${path}`, url), {
      method: get ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(!get && { body: JSON.stringify(body ?? {}) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`admin ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };

  return { url, pid, admin, stop };
}

/**
 * Runs `fn` with a fresh server and always stops it.
 * @template T
 * @param {Parameters<typeof startServer>[0]} options
 * @param {(server: BenchServer) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withServer(options, fn) {
  const server = await startServer(options);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** A plain node:http hello-world server in its own process (bench/baselines/hello-server.js). */
export function startHelloServer() {
  const script = fileURLToPath(new URL('../baselines/hello-server.js', import.meta.url));
  return spawnListening([script], /^hello server listening on (http:\/\/\S+)$/);
}
