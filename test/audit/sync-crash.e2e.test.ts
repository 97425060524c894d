import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { HOUR, startProxy } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const env = { SVC_API_KEY: 'ak_demo_project' };
let root: string;
let keyFile: string;

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-audit-sync-crash-'));
  keyFile = join(root, 'sign.pem');
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  // A stale dist/ is rebuilt here, which takes longer than a hook's default time on a busy machine.
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The same server data and clock for every sequence (generation is deterministic after a reset). */
function setUp(): void {
  server().admin.reset();
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
  server().admin.addAuditEvents({
    count: 6000,
    scope: 'project',
    from: iso(T0 - 3 * HOUR),
    to: iso(T0 + 170 * MIN),
  });
}

/** Between runs: the clock moves an hour; after run 1 two events arrive late, inside the overlap. */
function between(run: number): void {
  if (run === 1) {
    server().admin.addAuditEvents({
      count: 2,
      scope: 'project',
      from: iso(T0 - 8 * MIN),
      to: iso(T0 - 7 * MIN),
    });
  }
  server().admin.advanceClock(HOUR);
}

/** Every file under `dir`, by relative path. */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path));
  }
  return files;
}

/** A small deterministic generator: the same seed gives the same kill points. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('svc audit sync killed with SIGKILL at seeded points, then rerun: byte-identical to an uninterrupted sequence', () => {
  it.each([
    { seed: 1, gzip: false, sign: false },
    { seed: 42, gzip: true, sign: true },
  ])(
    'seed $seed (gzip $gzip, signed $sign)',
    async ({ seed, gzip, sign }) => {
      const args = (dir: string) => [
        'audit',
        'sync',
        '--dir',
        dir,
        '--since',
        iso(T0 - 4 * HOUR),
        '--page-size',
        '500',
        ...(gzip ? ['--gzip'] : []),
        ...(sign ? ['--sign-key', keyFile] : []),
      ];

      // The uninterrupted sequence, counting the requests of each run.
      setUp();
      const clean = join(root, `clean-${seed}`);
      const requests: number[] = [];
      for (let run = 1; run <= 3; run++) {
        let count = 0;
        const proxy = await startProxy(server().url, (n) => {
          count = n;
          return undefined;
        });
        try {
          const child = spawnSvc([...args(clean), '--base-url', proxy.url], env);
          expect(await exited(child)).toBe(0);
        } finally {
          await proxy.close();
        }
        requests.push(count);
        between(run);
      }

      // The same sequence, each run killed once at a seeded request, then run again to the end.
      setUp();
      const killed = join(root, `killed-${seed}`);
      const random = seeded(seed);
      for (let run = 1; run <= 3; run++) {
        const killAt = 1 + Math.floor(random() * (requests[run - 1] as number));
        let child: ReturnType<typeof spawnSvc> | undefined;
        const proxy = await startProxy(server().url, (n) => {
          if (n === killAt) child?.kill('SIGKILL');
          return undefined;
        });
        try {
          child = spawnSvc([...args(killed), '--base-url', proxy.url], env);
          expect(await exited(child)).toBe('SIGKILL');
        } finally {
          await proxy.close();
        }
        const rerun = spawnSvc([...args(killed), '--base-url', server().url], env);
        expect(await exited(rerun)).toBe(0);
        between(run);
      }

      const expected = snapshot(clean);
      const actual = snapshot(killed);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [name, bytes] of expected) expect(actual.get(name)?.equals(bytes), name).toBe(true);
      expect([...expected.keys()].filter((n) => n.startsWith('manifest-'))).toHaveLength(3);
    },
    120_000,
  );
});
