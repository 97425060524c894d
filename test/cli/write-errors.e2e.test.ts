import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { BIN, ensureBuilt } from '../helpers/built-cli.js';
import { type BulkStandIn, startBulkStandIn } from '../helpers/bulk-standin.js';
import { commandsOf, quietProgram } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

// No write fails silently: a command whose standard output is a full disk (`> /dev/full`) ends
// with one line naming the failure and exit 1, never exit 0 with the data lost. The command list
// comes from the CLI's own definitions, so a new command fails here until it is given a run (or a
// reason it writes nothing to stdout).

const server = useReferenceServer();
const FULL = '/dev/full';
const TOKEN = 'eyJ2ZXJpZmljYXRpb25JZCI6IjAwMDAwMDAwLTAwMDAtMDAwMC1kZGRkLTAwMDAwMDAwMDAwMyJ9';
let root: string;
let archive: string;
let resultId: string;
let scheduleId: string;
/** Where `audit ship` sends: the `_bulk` stand-in. */
let bulk: BulkStandIn;

/** Every command path that runs an action (groups with one of their own included), from the definitions. */
function commandPaths(): string[] {
  return commandsOf(quietProgram())
    .filter(({ path }) => path.length > 0 && !path.includes('help'))
    .filter(({ command }) => (command as unknown as { _actionHandler?: unknown })._actionHandler)
    .map(({ path }) => path.join(' '));
}

/** How each command is run with its stdout on /dev/full, or why it writes nothing there. */
const RUNS: Record<string, (() => string[]) | { none: string }> = {
  validate: () => ['validate', 'DE', '136695976', '-o', 'json'],
  precheck: () => ['precheck', 'DE', '136695976'],
  'results get': () => ['results', 'get', resultId],
  'schedules create': () => ['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'],
  'schedules delete': () => ['schedules', 'delete', scheduleId, '-o', 'json'],
  'webhooks listen': { none: 'runs until stopped; its lines are written as every command writes' },
  batch: () => ['batch', 'examples/data/customers.csv', '-o', 'ndjson'],
  'audit list': () => ['audit', 'list'],
  'audit export': () => ['audit', 'export'],
  'audit tail': { none: 'runs until stopped; its lines are written as every command writes' },
  'audit sync': () => ['audit', 'sync', '--dir', join(root, 'synced')],
  'audit verify': () => ['audit', 'verify', archive, '-o', 'json'],
  'audit gaps': () => ['audit', 'gaps', '--dir', archive, '-o', 'json'],
  'audit gaps ack': { none: 'answers on stderr only' },
  'audit copy': () => ['audit', 'copy', archive, join(root, `copy-${Date.now()}`)],
  'audit search': () => ['audit', 'search', '--dir', archive, '-o', 'ndjson'],
  'audit report': () => ['audit', 'report', 'actors', '--dir', archive, '-o', 'csv'],
  'audit ship': () => ['audit', 'ship', archive, '--dest', bulk.url, '--kind', 'elasticsearch', '--restart'],
  'audit receive': { none: 'runs until stopped; its lines are written as every command writes' },
  'captcha result': () => ['--sandbox', 'captcha', 'result', TOKEN, '-o', 'json'],
  'captcha legacy': () => [
    '--sandbox',
    '--api-key',
    `ak_${'x'.repeat(49)}`,
    'captcha',
    'legacy',
    '00000000-0000-0000-0000-000000000000',
  ],
  'captcha token': () => ['--sandbox', 'captcha', 'token'],
  'token decode': () => ['token', 'decode', TOKEN],
  'config set': { none: 'answers on stderr only' },
  'config get': () => ['config', 'get', 'base-url'],
  'config unset': { none: 'answers on stderr only' },
  'config list': () => ['config', 'list'],
  'config path': () => ['config', 'path'],
  serve: { none: 'runs until stopped; its lines are written as every command writes' },
  openapi: () => ['openapi'],
  completion: () => ['completion', 'bash'],
  doctor: () => ['doctor'],
  version: () => ['version'],
};

function runToFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const out = openSync(FULL, 'w');
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      NO_COLOR: '1',
      SVC_BASE_URL: server().url,
      SVC_API_KEY: 'ak_demo_project',
    },
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

beforeAll(async () => {
  ensureBuilt();
  bulk = await startBulkStandIn();
  root = mkdtempSync(join(tmpdir(), 'svc-write-errors-'));
  archive = join(root, 'archive');
  const client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  try {
    const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
    if (outcome.kind !== 'completed') throw new Error('the reference server answers a DE id at once');
    resultId = outcome.result.validationResultId;
    const schedule = await client.tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'MONTHLY',
    });
    scheduleId = schedule.scheduleId;
    await syncAuditArchive(client.audit, { dir: archive });
  } finally {
    await client.close();
  }
}, 120_000);
afterAll(async () => {
  if (root) rmSync(root, { recursive: true, force: true });
  await bulk?.close();
});

describe('no write fails silently: stdout on a full disk is one line and exit 1, for every command', () => {
  it('every command of the definitions has a run here, or a reason it writes nothing to stdout', () => {
    expect(commandPaths().filter((path) => !(path in RUNS))).toEqual([]);
  });

  const runnable = existsSync(FULL) && process.platform === 'linux';
  if (!runnable) console.log(`${FULL} is not there (not Linux): the full-disk runs are skipped`);
  for (const [path, how] of Object.entries(RUNS)) {
    if (typeof how !== 'function') continue;
    it.skipIf(!runnable)(
      `svc ${path} > /dev/full`,
      async () => {
        const run = await runToFull(how());
        expect(run.code, run.stderr).toBe(1);
        const lines = run.stderr.trimEnd().split('\n');
        expect(lines.filter((line) => line.startsWith('svc: cannot write standard output'))).toEqual([
          'svc: cannot write standard output: no space left on device (ENOSPC)',
        ]);
        expect(run.stderr).not.toMatch(/\n\s+at /);
      },
      60_000,
    );
  }

  it.skipIf(!runnable)(
    'svc --version and a bare svc --help (answered before the CLI loads) too',
    async () => {
      for (const args of [['--version'], ['--help']]) {
        const run = await runToFull(args);
        expect([run.code, run.stderr]).toEqual([
          1,
          'svc: cannot write standard output: no space left on device (ENOSPC)\n',
        ]);
      }
    },
  );
});
