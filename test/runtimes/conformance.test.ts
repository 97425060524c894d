import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';
import {
  BIN,
  direct,
  hosted,
  isAvailable,
  lastLineJson,
  launcherTail,
  linkPackage,
  NODE22,
  type Runtime,
  run,
} from './runners.js';

// The verify conformance checks (test/runtimes/conformance.mjs) in each runtime, against the
// reference server on loopback, each runtime started as test/runtimes/runners.ts says.

const server = useReferenceServer();

type Entry = 'botcheck' | 'index';

const RUNTIMES: Runtime<Entry>[] = [
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
function writeLauncher(dir: string, runtime: Runtime<Entry>, config: unknown): string {
  const file = join(dir, 'launcher.mjs');
  linkPackage(dir);
  const entry = JSON.stringify(
    runtime.entry === 'index' ? 'svc-sdk' : join(ROOT, 'dist', `${runtime.entry}.js`),
  );
  // The root entry has no verifyRequest: that comes from svc-sdk/http, as an app would import it.
  const http = JSON.stringify('svc-sdk/http');
  const suite = JSON.stringify(join(ROOT, 'test', 'runtimes', 'conformance.mjs'));
  const tail = launcherTail(runtime.launcher, `runConformance(lib, ${JSON.stringify(config)})`);
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
  const available = isAvailable(runtime);
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
    results = lastLineJson(await run(command, args));
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
