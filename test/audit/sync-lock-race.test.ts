import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';

/**
 * Two child processes, each holding the lock module, take the same stale lock at the same moment,
 * round after round. A child answers one message per round: `take` gives `won` (holding the lock)
 * or `lost` (refused), `release` gives `released`.
 */
const CHILD = `
import { acquireSyncLock } from './sync-lock.mjs';
let release;
process.on('message', async ({ op, dir }) => {
  try {
    if (op === 'take') { release = await acquireSyncLock(dir); process.send('won'); }
    else { await release?.(); release = undefined; process.send('released'); }
  } catch (error) { process.send(error.code === 'locked' ? 'lost' : 'error ' + error.message); }
});
`;

let root: string;
const children: ChildProcess[] = [];

const ask = (child: ChildProcess, message: object) =>
  new Promise<string>((resolve) => {
    child.once('message', (answer) => resolve(String(answer)));
    child.send(message);
  });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'svc-lock-race-'));
  await build({
    entryPoints: [join(ROOT, 'src/node/audit-store/folder-lock.ts')],
    outfile: join(root, 'sync-lock.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  writeFileSync(join(root, 'child.mjs'), CHILD);
  for (let i = 0; i < 2; i++) children.push(fork(join(root, 'child.mjs'), { stdio: 'ignore' }));
});
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('one lock holder, always: a stale lock is taken over by exactly one of two racing processes', () => {
  it('gives the lock to exactly one of 2 processes in each of 200 races, and the lock file is private', async () => {
    // A pid of this host that no longer runs: the lock it left is stale.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const dir = join(root, 'archive');
    const outcomes: string[] = [];
    for (let round = 0; round < 200; round++) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      writeFileSync(join(dir, 'sync.lock'), JSON.stringify({ pid: dead, host: hostname() }));
      const answers = await Promise.all(children.map((child) => ask(child, { op: 'take', dir })));
      outcomes.push(answers.slice().sort().join('/'));
      if (round === 0) expect(statSync(join(dir, 'sync.lock')).mode & 0o777).toBe(0o600);
      await Promise.all(children.map((child) => ask(child, { op: 'release', dir })));
      expect(existsSync(join(dir, 'sync.lock'))).toBe(false);
    }
    const counts: Record<string, number> = {};
    for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
    expect(counts).toEqual({ 'lost/won': 200 });
  }, 120_000);
});
