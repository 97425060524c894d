import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the tests look for Debian's tinyproxy (`TINYPROXY_PATH` to use another). */
const TINYPROXY = process.env.TINYPROXY_PATH ?? '/usr/bin/tinyproxy';

/**
 * Why the proxy tests cannot run here, or undefined when tinyproxy is installed. In CI
 * (`CI=true`) a missing tinyproxy is an error, not a skip: `.ci/run` installs it.
 */
export const tinyproxyMissing: string | undefined = existsSync(TINYPROXY)
  ? undefined
  : `tinyproxy not found at ${TINYPROXY} (apt install tinyproxy, or set TINYPROXY_PATH): proxy tests skipped`;

if (tinyproxyMissing) {
  if (process.env.CI === 'true') throw new Error(`CI=true and ${tinyproxyMissing.replace(/: .*$/, '')}`);
  console.warn(tinyproxyMissing);
}

/** A running tinyproxy on 127.0.0.1. */
export interface Tinyproxy {
  /** `http://127.0.0.1:PORT`, or with `user:pass@` when started with credentials. */
  url: string;
  /** The same without credentials. */
  plainUrl: string;
  port: number;
  /** The request lines tinyproxy logged so far (`GET http://host:port/path HTTP/1.1`, `CONNECT host:port HTTP/1.1`). */
  requests(): string[];
  /** Stops it (its port then refuses connections). */
  stop(): Promise<void>;
}

/** A port free at this moment on 127.0.0.1: tinyproxy needs a number in its config, not 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (tinyproxy started), within 10 s. */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tinyproxy exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`tinyproxy did not listen on ${port}`);
    // Polling a child process's port: it says nothing when it is ready.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Starts tinyproxy in the foreground on 127.0.0.1 with a generated config in a temp folder:
 * `Allow 127.0.0.1`, a log at level Connect (each request line), `BasicAuth user pass` with
 * `auth`, and `ConnectPort` lines for `connectPorts` (CONNECT to any port without).
 */
export async function startTinyproxy(
  options: { auth?: { user: string; pass: string }; connectPorts?: number[] } = {},
): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tinyproxy-'));
  const log = join(dir, 'tinyproxy.log');
  const port = await freePort();
  const config = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 30',
    `LogFile "${log}"`,
    'LogLevel Connect',
    'MaxClients 100',
    'Allow 127.0.0.1',
    ...(options.auth ? [`BasicAuth ${options.auth.user} ${options.auth.pass}`] : []),
    ...(options.connectPorts ?? []).map((p) => `ConnectPort ${p}`),
  ].join('\n');
  writeFileSync(join(dir, 'tinyproxy.conf'), `${config}\n`);
  const child = spawn(TINYPROXY, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  await accepting(port, child);
  const plainUrl = `http://127.0.0.1:${port}`;
  const auth = options.auth;
  let stopped: Promise<void> | undefined;
  return {
    url: auth
      ? `http://${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@127.0.0.1:${port}`
      : plainUrl,
    plainUrl,
    port,
    requests: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .map((line) => /Request \(file descriptor \d+\): (.*)$/.exec(line)?.[1])
            .filter((line): line is string => line !== undefined)
        : [],
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }).then(() => rmSync(dir, { recursive: true, force: true }));
      return stopped;
    },
  };
}
