import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { allBlocks, type DocBlock, shellScript } from './doc-blocks.js';

/** Runs a program to its end with stdin closed (an example that reads stdin gets EOF, never hangs). */
function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(Object.assign(new Error(`exit ${code ?? signal}`), { stdout, stderr }));
    });
  });
}

/**
 * Every example of the README and the guides runs: shell blocks against `--sandbox` or a reference
 * server, TypeScript blocks type-checked and run (see doc-blocks.ts for the marks). The report at
 * the end says how many ran, were skipped (and why) and failed.
 */
const blocks = allBlocks(ROOT);
const byFile = new Map<string, DocBlock[]>();
for (const block of blocks) byFile.set(block.file, [...(byFile.get(block.file) ?? []), block]);
const report = { ran: 0, failed: 0, skipped: new Map<string, number>() };
const skip = (reason: string) => report.skipped.set(reason, (report.skipped.get(reason) ?? 0) + 1);

let server: ReferenceServer;
let scratch: string;
let shimDir: string;

/** A port nobody listens on now, for a guide's `svc serve --port 4010`. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The documented ports (4010 for the dev server, 3000 for an example app), moved to free ones so
 * parallel runs never collide.
 */
const withPort = (text: string, ports: { server: number; app: number }) =>
  text
    .replace(/(127\.0\.0\.1:|localhost:|--port )4010\b/g, `$1${ports.server}`)
    .replace(/(127\.0\.0\.1:|localhost:|PORT=)3000\b/g, `$1${ports.app}`);

function environment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: `${shimDir}:${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    CI: 'true',
    // The reader who followed "run svc serve, then export SVC_BASE_URL and SVC_API_KEY".
    SVC_BASE_URL: server.url,
    SVC_API_KEY: 'ak_demo_project',
  };
}

beforeAll(async () => {
  ensureBuilt();
  server = await createReferenceServer();
  scratch = mkdtempSync(join(tmpdir(), 'svc-doc-examples-'));
  shimDir = join(scratch, 'path');
  mkdirSync(shimDir);
  writeFileSync(
    join(shimDir, 'svc'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/svc.js')}" "$@"\n`,
  );
  chmodSync(join(shimDir, 'svc'), 0o755);
  rmSync(tsDir, { recursive: true, force: true });
  mkdirSync(tsDir, { recursive: true });
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  const skipped = [...report.skipped].map(([reason, n]) => `${n} ${reason}`).join(', ');
  const total = [...report.skipped.values()].reduce((a, b) => a + b, 0);
  console.log(
    `doc examples: ${report.ran} ran, ${total} skipped${skipped ? ` (${skipped})` : ''}, ${report.failed} failed`,
  );
});

/** Runs a check and counts it. */
async function counted(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    report.ran += 1;
  } catch (error) {
    report.failed += 1;
    throw error;
  }
}

function name(block: DocBlock): string {
  const first = block.body.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('//')) ?? '';
  return `${block.file}:${block.line} ${block.lang} ${block.kind}: ${first.trim().slice(0, 60)}`;
}

/** A workspace per guide, in which its shell blocks run in order (a guide is one path). */
function workspace(file: string): string {
  const dir = join(scratch, file.replace(/[^\w.-]/g, '_'));
  mkdirSync(join(dir, 'home'), { recursive: true });
  for (const link of ['examples', 'bin', 'node_modules']) {
    try {
      symlinkSync(join(ROOT, link), join(dir, link));
    } catch {
      // already linked by an earlier block of this guide
    }
  }
  return dir;
}

/**
 * Runs a shell block in its guide's workspace. What an earlier block exported (`export
 * SVC_BASE_URL=...`) is still set, as in the reader's terminal: each block saves its exports for
 * the next one.
 */
async function runShell(block: DocBlock, port: { server: number; app: number }): Promise<void> {
  const cwd = workspace(block.file);
  const script = [
    '[ -f .doc-exports ] && . ./.doc-exports',
    withPort(shellScript(block.body), port),
    'export -p > .doc-exports',
    '',
  ].join('\n');
  try {
    await run('bash', ['-c', script], { cwd, env: environment(join(cwd, 'home')), timeout: 60_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${name(block)}\n--- stdout\n${stdout.slice(-2000)}\n--- stderr\n${stderr.slice(-2000)}`);
  }
}

/**
 * The request of an admin-route example (`curl [-X M] 'URL' [-H 'k: v'] [-d 'JSON']`), as the
 * generated listing of docs/reference-server.md writes it.
 */
function parseCurl(body: string): {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
} {
  const line = body.trim();
  const url = /'(http:\/\/[^']+)'/.exec(line)?.[1];
  if (!line.startsWith('curl ') || line.includes('\n') || url === undefined) {
    throw new Error(`not a single curl command: ${line}`);
  }
  const headers: Record<string, string> = {};
  for (const [, key, value] of line.matchAll(/-H '([^:']+):\s*([^']*)'/g))
    headers[key as string] = value as string;
  const data = /-d '([^']*)'/.exec(line)?.[1];
  return {
    method: /-X (\w+)/.exec(line)?.[1] ?? 'GET',
    url,
    headers,
    ...(data !== undefined && { body: data }),
  };
}

/** The `Answers: \`201 ...\`` line of the section a block belongs to. */
function documentedAnswer(block: DocBlock): string {
  const lines = readFileSync(join(ROOT, block.file), 'utf8').split('\n');
  for (let i = block.line - 2; i >= 0 && !(lines[i] as string).startsWith('#'); i -= 1) {
    const answer = /^Answers: `([^`]+)`/.exec(lines[i] as string)?.[1];
    if (answer !== undefined) return answer;
  }
  throw new Error(`${block.file}:${block.line}: no 'Answers:' line above the example`);
}

/** One reference server for the admin-route examples, in the order the guide lists them. */
let adminServer: ReferenceServer | undefined;
/** The webhook receiver of {@link endedDelivery}. */
let receiver: HttpServer | undefined;

/** The id of a webhook delivery that ended (delivered): a validation's event to a local receiver. */
async function endedDelivery(base: string): Promise<string> {
  let arrived!: () => void;
  const hook = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  receiver = createHttpServer((req, res) => {
    req.resume();
    res.writeHead(204).end();
    arrived();
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // The faults example before this one injects failures into API requests: none for this setup.
  await post('/__admin/faults', { rate: 0 });
  await post('/__admin/webhook-endpoints', { url: hookUrl });
  const client = new SvcClient({ baseUrl: base, apiKey: 'ak_demo_project' });
  await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
  await hook;
  // The delivery is marked delivered once the answer is read: ask until it is (each ask yields).
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const res = await fetch(`${base}/__admin/webhook-deliveries?state=delivered&limit=1`);
    const { deliveries } = (await res.json()) as { deliveries: { id: string; url: string }[] };
    const delivery = deliveries.find((d) => d.url === hookUrl);
    if (delivery) return delivery.id;
  }
  throw new Error('no delivered webhook delivery to redeliver');
}

/**
 * Sends the request of an admin-route example to a reference server (the documented port 4010
 * moved to it) and compares the status with the documented answer. A placeholder id in the path
 * is replaced by a real one made for it; an event stream is read up to its headers.
 */
async function replayAdmin(block: DocBlock): Promise<void> {
  const request = parseCurl(block.body);
  const answer = documentedAnswer(block);
  adminServer ??= await createReferenceServer();
  let url = request.url.replace(/^http:\/\/(127\.0\.0\.1|localhost):4010/, adminServer.url);
  if (url === request.url) throw new Error(`${name(block)}: not a URL of the documented server (port 4010)`);
  if (url.includes('VERIFICATION_ID')) {
    const made = await fetch(`${adminServer.url}/__admin/verifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'unfinished' }),
    });
    url = url.replace('VERIFICATION_ID', ((await made.json()) as { verificationId: string }).verificationId);
  }
  if (url.includes('DELIVERY_ID')) url = url.replace('DELIVERY_ID', await endedDelivery(adminServer.url));
  if (url.includes('STREAM_ID')) {
    // A stream of its own; nothing listens on port 9, so what it is sent waits for a retry.
    const made = await fetch(`${adminServer.url}/__admin/audit-streams`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: 'http://127.0.0.1:9/audit',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      }),
    });
    url = url.replace('STREAM_ID', ((await made.json()) as { streamId: string }).streamId);
  }
  if (/\/[A-Z][A-Z_]{5,}(\/|$)/.test(new URL(url).pathname)) {
    throw new Error(`${name(block)}: a placeholder id this runner cannot fill in`);
  }
  const abort = new AbortController();
  const res = await fetch(url, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined && { body: request.body }),
    signal: abort.signal,
  });
  const text = answer.includes('text/event-stream') ? '(a stream)' : await res.text();
  abort.abort();
  if (res.status !== Number(answer.slice(0, 3))) {
    throw new Error(
      `${name(block)}: answered ${res.status}, the guide says ${answer}\n${text.slice(0, 500)}`,
    );
  }
  const type = /^\d{3} ([a-z]+\/[a-z-]+)/.exec(answer)?.[1];
  if (type !== undefined) {
    const got = res.headers.get('content-type') ?? '';
    if (!got.startsWith(type)) throw new Error(`${name(block)}: content-type ${got}, the guide says ${type}`);
  }
}

afterAll(async () => {
  await adminServer?.close();
  receiver?.close();
});

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

/**
 * A long-running command (a server, a listener): it must print a first line (on stdout, or an
 * announcement on stderr that is no error line), and keeps running for the guide's next blocks.
 */
async function startBackground(block: DocBlock, port: { server: number; app: number }): Promise<void> {
  const cwd = workspace(block.file);
  const command = withPort(block.body, port).replace(/\s*&\s*$/gm, '');
  // Its own process group, so the whole command (npx, tsx, node) stops with it.
  const child = spawn('bash', ['-c', command], { cwd, env: environment(join(cwd, 'home')), detached: true });
  started.push(child);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${name(block)}: no output in 20 s\n${err}`)), 20_000);
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    // A listener announces itself on stderr (data goes to stdout): that counts, an error line not.
    child.stderr?.on('data', (d: Buffer) => {
      const first = err === '';
      err += d.toString();
      if (first && !/^(svc: |Error)/.test(err)) ready();
    });
    child.stdout?.once('data', ready);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name(block)}: exited ${code} before printing\n${err}`));
    });
  });
}

/** TypeScript blocks go to .tmp/doc-examples inside the project, so `import 'svc-sdk'` resolves to this package. */
const tsDir = join(ROOT, '.tmp', 'doc-examples');

function tsPath(block: DocBlock): string {
  return join(tsDir, `${block.file.replace(/[^\w]/g, '_')}_${block.line}.ts`);
}

describe('every example in the README and docs/ runs', () => {
  for (const [file, fileBlocks] of byFile) {
    const code = fileBlocks.filter((b) => b.kind !== 'data');
    // A file with only data blocks (output, JSON) has nothing to run.
    if (code.length === 0) continue;
    describe(file, () => {
      const port = { server: 0, app: 0 };
      beforeAll(async () => {
        port.server = await freePort();
        port.app = await freePort();
      });

      for (const block of code) {
        if (block.kind === 'unmarked') {
          it(name(block), () => {
            report.failed += 1;
            throw new Error(
              `${block.file}:${block.line}: ${block.reason}; mark it (see test/docs/doc-blocks.ts)`,
            );
          });
        } else if (block.lang === 'cmd') {
          it(`${name(block)} (run under Wine by test/docs/windows-blocks.test.ts)`, () => {
            skip('cmd: run under Wine by windows-blocks.test.ts');
          });
        } else if (block.lang === 'powershell') {
          it(`${name(block)} (not run: ${block.reason})`, () => {
            skip(block.reason ?? 'PowerShell');
          });
        } else if (block.lang === 'sh' && block.kind === 'run') {
          it(name(block), () => counted(() => runShell(block, port)), 90_000);
        } else if (block.lang === 'sh' && block.kind === 'replay') {
          it(name(block), () => counted(() => replayAdmin(block)), 30_000);
        } else if (block.lang === 'sh' && block.kind === 'background') {
          it(name(block), () => counted(() => startBackground(block, port)), 30_000);
        } else if (block.lang === 'sh') {
          it(`${name(block)} (parsed: ${block.reason})`, async () => {
            skip(block.reason ?? 'parsed only');
            await run('bash', ['-n', '-c', block.body]);
          });
        } else if (block.kind === 'parse') {
          it(`${name(block)} (parsed: ${block.reason})`, async () => {
            skip(block.reason ?? 'parsed only');
            await transform(block.body, { loader: 'ts', format: 'esm' });
          });
        } else if (block.kind === 'typecheck' || block.kind === 'run') {
          // Type-checked together below; run here when runnable.
          it(name(block), async () => {
            if (block.kind === 'typecheck') {
              skip(`${block.reason ?? 'type-checked only'} (type-checked)`);
              return;
            }
            await counted(async () => {
              const { code: js } = await transform(block.body, { loader: 'ts', format: 'esm' });
              const out = tsPath(block).replace(/\.ts$/, '.mjs');
              writeFileSync(out, js);
              const cwd = workspace(block.file);
              try {
                await run(process.execPath, [out], {
                  cwd,
                  env: environment(join(cwd, 'home')),
                  timeout: 60_000,
                });
              } catch (error) {
                const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
                throw new Error(
                  `${name(block)}\n--- stdout\n${stdout.slice(-2000)}\n--- stderr\n${stderr.slice(-2000)}`,
                );
              }
            });
          }, 90_000);
        }
      }
    });
  }

  const typescript = blocks.filter((b) => b.lang === 'ts' && (b.kind === 'run' || b.kind === 'typecheck'));
  it(`the ${typescript.length} TypeScript examples type-check (strict, NodeNext, against the built package)`, async () => {
    for (const block of typescript) writeFileSync(tsPath(block), block.body);
    writeFileSync(
      join(tsDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          ignoreDeprecations: '6.0',
        },
        include: ['*.ts'],
      }),
    );
    if (typescript.length === 0) return;
    try {
      await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsDir], {
        cwd: ROOT,
      });
    } catch (error) {
      throw new Error(
        `TypeScript examples do not type-check:\n${(error as { stdout?: string }).stdout ?? ''}`,
      );
    }
  }, 120_000);
});
