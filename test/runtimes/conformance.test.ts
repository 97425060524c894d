import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';

// The verify conformance checks (test/runtimes/conformance.mjs) in each runtime, against the
// reference server on loopback. The runtimes come from npm (devDependencies); nothing is
// downloaded here. A missing runtime fails in CI and is a printed skip elsewhere.

const server = useReferenceServer();
const BIN = join(ROOT, 'node_modules', '.bin');
const NODE22 = join(ROOT, 'node_modules', 'node22', 'bin', 'node');

type Entry = 'botcheck' | 'index';
interface Runtime {
  name: string;
  entry: Entry;
  /** The file that must exist for the runtime to run. */
  needs: string;
  /** Why this run is skipped for now (printed); remove once the reason is gone. */
  pending?: string;
  /** How the launcher hands over the results: prints them, answers a fetch, or sets a global. */
  launcher: 'main' | 'worker' | 'script';
  /** How the launcher (or its bundle) is run; the results come as JSON on stdout. */
  command(launcher: string, dir: string): Promise<[string, string[]]>;
}

/** Bundles the launcher with esbuild, as a Worker (ESM) or a script (IIFE). */
async function bundle(launcher: string, dir: string, format: 'esm' | 'iife'): Promise<string> {
  const outfile = join(dir, `bundle-${format}.js`);
  await build({
    entryPoints: [launcher],
    outfile,
    bundle: true,
    format,
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'edge-light', 'browser', 'import'],
    mainFields: ['browser', 'module', 'main'],
    // With nodejs_compat, workerd provides Node's modules itself (as `node:x` and `x`).
    external: ['node:*', ...builtinModules],
    logLevel: 'silent',
  });
  return outfile;
}

/** A runtime that runs the launcher file as it is. */
const direct = (name: string, entry: Entry, bin: string, flags: string[] = []): Runtime => ({
  name,
  entry,
  needs: bin,
  launcher: 'main',
  command: async (launcher) => [bin, [...flags, launcher]],
});

/** A runtime hosted by a Node script (test/runtimes/host-*.mjs) that runs the bundled launcher. */
const hosted = (
  name: string,
  entry: Entry,
  host: 'edge-runtime' | 'workerd',
  extra: string[] = [],
): Runtime => ({
  name,
  entry,
  needs: join(ROOT, 'node_modules', host === 'workerd' ? 'miniflare' : host, 'package.json'),
  launcher: host === 'workerd' ? 'worker' : 'script',
  command: async (launcher, dir) => [
    process.execPath,
    [
      join(ROOT, 'test', 'runtimes', `host-${host}.mjs`),
      await bundle(launcher, dir, host === 'workerd' ? 'esm' : 'iife'),
      ...extra,
    ],
  ],
});

const RUNTIMES: Runtime[] = [
  direct('Node 20', 'botcheck', process.execPath),
  direct('Node 22', 'botcheck', NODE22),
  direct('Node 20, root entry', 'index', process.execPath),
  direct('Deno (--allow-net only)', 'botcheck', join(BIN, 'deno'), [
    'run',
    '--allow-net',
    '--no-prompt',
    '--node-modules-dir=manual',
  ]),
  direct('Deno (--allow-net only), root entry', 'index', join(BIN, 'deno'), [
    'run',
    '--allow-net',
    '--no-prompt',
    '--node-modules-dir=manual',
  ]),
  direct('Bun', 'botcheck', join(BIN, 'bun')),
  direct('Bun, root entry', 'index', join(BIN, 'bun')),
  hosted('edge-runtime', 'botcheck', 'edge-runtime'),
  hosted('workerd, nodejs_compat off', 'botcheck', 'workerd'),
  hosted('workerd, nodejs_compat on, root entry', 'index', 'workerd', ['nodejs_compat']),
  hosted('workerd, nodejs_compat off, root entry', 'index', 'workerd'),
];

/**
 * A launcher with static imports and the config inlined: the same file for every runtime. The root
 * entry is imported by its package name, as an app does, through dir/node_modules/svc-sdk (a link
 * to the project), so that each runtime or bundler picks its build by the package.json conditions.
 */
function writeLauncher(dir: string, runtime: Runtime, config: unknown): string {
  const file = join(dir, 'launcher.mjs');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', 'svc-sdk')))
    symlinkSync(ROOT, join(dir, 'node_modules', 'svc-sdk'));
  const entry = JSON.stringify(
    runtime.entry === 'index' ? 'svc-sdk' : join(ROOT, 'dist', `${runtime.entry}.js`),
  );
  // The root entry has no verifyRequest: that comes from svc-sdk/http, as an app would import it.
  const http = JSON.stringify('svc-sdk/http');
  const suite = JSON.stringify(join(ROOT, 'test', 'runtimes', 'conformance.mjs'));
  const run = `runConformance(lib, ${JSON.stringify(config)})`;
  const tail = {
    main: `console.log(JSON.stringify(await ${run}));`,
    worker: `export default { async fetch() { return Response.json(await ${run}); } };`,
    script: `globalThis.__conformance = () => ${run};`,
  }[runtime.launcher];
  const imports = [
    `import * as entry from ${entry};`,
    `import { runConformance } from ${suite};`,
    ...(runtime.entry === 'index'
      ? [`import { verifyRequest } from ${http};`, 'const lib = { ...entry, verifyRequest };']
      : ['const lib = entry;']),
  ];
  writeFileSync(file, `${imports.join('\n')}\n${tail}\n`);
  return file;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: ROOT, timeout: 120_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

let downUrl = '';
beforeAll(async () => {
  ensureBuilt();
  const gone = await createReferenceServer();
  downUrl = gone.url;
  await gone.close();
}, 600_000);

/** runBatch's rows, each object's keys in sorted order: its canonical text is JSON.stringify's. */
const BATCH_ROWS = [
  { countryCode: 'DE', rawValue: 'DE136695976' },
  { companyName: 'Müller "GmbH"', countryCode: 'DE', rawValue: '136695976' },
];

/** A row's key as node:crypto derives it: SHA-256 of `run id + row + canonical JSON`, UUID-shaped. */
function nodeKey(runId: string, row: number, request: object): string {
  const hex = createHash('sha256')
    .update(`${runId}\n${row}\n${JSON.stringify(request)}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

type Observed = { decision?: string; reasons?: string[]; error?: string; status?: number } & Record<
  string,
  unknown
>;

describe.each(RUNTIMES)('verify conformance in $name', (runtime) => {
  const installed = existsSync(runtime.needs);
  if (!installed) {
    if (process.env.CI === 'true') throw new Error(`${runtime.name}: ${runtime.needs} is missing`);
    console.warn(`skipped: ${runtime.name} is not installed (${runtime.needs} is missing)`);
  }
  if (runtime.pending) console.warn(`skipped: ${runtime.name}: ${runtime.pending}`);
  const available = installed && runtime.pending === undefined;
  const dir = mkdtempSync(join(tmpdir(), 'svc-conformance-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let results: Record<string, Observed> = {};

  beforeAll(async () => {
    if (!available) return;
    const admin = server().admin;
    const fresh = () => admin.createVerification({ score: 0.1 }).token;
    const config = {
      baseUrl: server().url,
      downUrl,
      apiKey: DEMO.projectKey,
      notFoundId: '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f',
      batchRows: BATCH_ROWS,
      tokens: {
        accept: fresh(),
        reject: admin.createVerification({ passed: false }).token,
        replay: fresh(),
        failOpenOutage: fresh(),
        webRequest: fresh(),
        multipart: fresh(),
      },
    };
    const [command, args] = await runtime.command(writeLauncher(dir, runtime, config), dir);
    const stdout = await run(command, args);
    results = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  }, 300_000);

  const check = available ? it : it.skip;

  check('accept', () => {
    expect(results.accept).toMatchObject({ decision: 'accept' });
  });
  check('reject', () => {
    expect(results.reject).toMatchObject({ decision: 'reject', reasons: ['VERIFICATION_FAILED'] });
  });
  check('replay: the second call is REPLAYED', () => {
    expect(results.replay).toEqual({
      first: expect.objectContaining({ decision: 'accept' }),
      second: { decision: 'reject', reasons: ['REPLAYED'] },
    });
  });
  check('malformed token: TOKEN_INVALID, even with failOpen', () => {
    expect(results.malformedToken).toMatchObject({ decision: 'reject', reasons: ['TOKEN_INVALID'] });
  });
  check('service down fails closed', () => {
    expect(results.serviceDownFailsClosed).toEqual({
      decision: 'reject',
      reasons: ['SERVICE_UNAVAILABLE'],
      error: 'ConnectionError',
    });
  });
  check('fail-open on outage only, and never for a repeat', () => {
    expect(results.failOpenOnOutage).toEqual({
      first: { decision: 'accept', reasons: ['SERVICE_UNAVAILABLE', 'FAIL_OPEN'], error: 'ConnectionError' },
      repeat: { decision: 'reject', reasons: ['REPLAYED'] },
    });
  });
  check('a nonexistent id under failOpen: true is rejected', () => {
    expect(results.nonexistentIdUnderFailOpen).toEqual({
      decision: 'reject',
      reasons: ['SERVICE_ERROR'],
      error: 'VerificationNotFoundError',
    });
  });
  check('verifyRequest with a Web Request; the handler still reads the form', () => {
    expect(results.webRequest).toMatchObject({ status: 200, decision: 'accept', handlerSees: 'hi' });
  });
  const rootEntry = available && runtime.entry === 'index' ? it : it.skip;
  rootEntry("runBatch's idempotency keys are node:crypto's SHA-256 keys, byte for byte", () => {
    expect(results.batchKeys).toEqual(
      BATCH_ROWS.map((request, i) => ({
        row: i + 1,
        status: 'submitted',
        key: nodeKey('conformance', i + 1, request),
      })),
    );
  });
  check('a multipart form verifies; the handler still reads the file', () => {
    expect(results.multipartForm).toMatchObject({
      status: 200,
      decision: 'accept',
      handlerSees: [0, 255, 254, 10],
    });
  });
});
