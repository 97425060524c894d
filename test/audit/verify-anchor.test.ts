import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { sha256 } from '../../src/node/audit-archive/files.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

const server = useReferenceServer();
const MIN = 60_000;
// Three hours before the local clock: the newest run ends 65 minutes ago, run 2 125 minutes ago.
const T0 = Math.floor(Date.now() / MIN) * MIN - 3 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
let dir: string;
let client: SvcClient;
let keyDir: string;
let pubFile: string;

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-anchor-'));
  keyDir = mkdtempSync(join(tmpdir(), 'svc-audit-anchor-key-'));
  pubFile = join(keyDir, 'pub.pem');
  writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
});
afterEach(async () => {
  await dropScratch(dir, client);
  rmSync(keyDir, { recursive: true, force: true });
});

/** Three signed runs an hour apart; the head digest of each, as the sync reported it. */
async function threeRuns(): Promise<string[]> {
  server().admin.addAuditEvents({
    count: 300,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 + 1.8 * HOUR),
  });
  const heads: string[] = [];
  for (let run = 1; run <= 3; run++) {
    const result = await syncAuditArchive(client.audit, { dir, since: iso(T0 - 3 * HOUR), signKey });
    heads.push(result.head?.sha256 ?? '');
    server().admin.advanceClock(HOUR);
  }
  return heads;
}

const verify = (...extra: string[]) => runSvc(['audit', 'verify', dir, '--public-key', pubFile, ...extra]);

/** The attack: run 3's files gone; the state removed, or rewritten to name run 2 as the head. */
function truncate(state: 'removed' | 'rewritten'): void {
  unlinkSync(join(dir, 'manifest-000003.json'));
  unlinkSync(join(dir, 'audit-000003.ndjson'));
  const statePath = join(dir, 'sync-state.json');
  if (state === 'removed') {
    unlinkSync(statePath);
    return;
  }
  const saved = JSON.parse(readFileSync(statePath, 'utf8'));
  saved.lastManifest = {
    name: 'manifest-000002.json',
    sha256: sha256(readFileSync(join(dir, 'manifest-000002.json'))),
  };
  writeFileSync(statePath, JSON.stringify(saved));
}

describe('the head is anchored: truncation and rollback pass a signed verify, but not --head or --max-age', () => {
  it.each(['removed', 'rewritten'] as const)('run 3 deleted, sync state %s', async (state) => {
    const heads = await threeRuns();
    expect((await verify('--head', heads[2] as string, '--max-age', '90m')).code).toBe(0);
    truncate(state);
    // Signatures and links of what is left are fine: without an anchor the loss is invisible.
    expect((await verify()).code).toBe(0);
    const byHead = await verify('--head', `sha256:${heads[2]}`);
    expect(byHead.code).toBe(1);
    expect(byHead.stdout).toMatch(
      /^manifest-000002\.json: the chain does not end at the anchored head .*rolled back/m,
    );
    const byAge = await verify('--max-age', '90m');
    expect(byAge.code).toBe(1);
    expect(byAge.stdout).toMatch(
      /^manifest-000002\.json: the newest run ends at .*longer than --max-age allows/m,
    );
  });

  it('each sync prints its head on one line and appends it to GITHUB_STEP_SUMMARY', async () => {
    server().admin.addAuditEvents({
      count: 10,
      scope: 'project',
      from: iso(T0 - HOUR),
      to: iso(T0 - 10 * MIN),
    });
    const summary = join(keyDir, 'summary.md');
    writeFileSync(summary, '# nightly\n');
    const run = await runSvc(
      ['audit', 'sync', '--dir', dir, '--since', iso(T0 - 2 * HOUR), '--base-url', server().url],
      {
        env: { SVC_API_KEY: 'ak_demo_project', GITHUB_STEP_SUMMARY: summary },
      },
    );
    expect(run.code).toBe(0);
    const digest = sha256(readFileSync(join(dir, 'manifest-000001.json')));
    expect(run.stdout).toBe(`head sha256:${digest} manifest-000001.json\n`);
    expect(readFileSync(summary, 'utf8')).toBe(
      `# nightly\n- audit archive \`${dir}\`: head \`sha256:${digest}\` (manifest-000001.json)\n`,
    );
    expect((await verify('--head', digest)).code).toBe(1); // unsigned: the key is given
    expect((await runSvc(['audit', 'verify', dir, '--head', digest])).code).toBe(0);
  });

  it('runs added after the anchor are named as such; a malformed --head is a usage error', async () => {
    const heads = await threeRuns();
    const later = await verify('--head', heads[1] as string);
    expect(later.code).toBe(1);
    expect(later.stdout).toMatch(/the chain ends after the anchored head manifest-000002\.json/);
    expect((await verify('--head', 'abc')).code).toBe(2);
    expect((await verify('--max-age', 'soon')).code).toBe(2);
  });
});

describe('verify reports the time each run covers, holes between runs, and -o json', () => {
  it('gives the chain, the head and no hole for a whole archive', async () => {
    const heads = await threeRuns();
    const run = await verify('-o', 'json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.chain.map((r: { run: number; from: string; to: string }) => [r.run, r.to])).toEqual([
      [1, iso(T0 - 5 * MIN)],
      [2, iso(T0 + 55 * MIN)],
      [3, iso(T0 + 115 * MIN)],
    ]);
    expect(result.head).toEqual({
      manifest: 'manifest-000003.json',
      sha256: heads[2],
      to: iso(T0 + 115 * MIN),
    });
    expect(result.holes).toEqual([]);
    expect(run.stderr).toMatch(`covers ${iso(T0 - 3 * HOUR)} to ${iso(T0 + 115 * MIN)}`);
  });
});

describe('verify stays in bounds: only regular files inside the archive are opened', () => {
  it('a data file or a manifest that is a symlink to /dev/zero is reported, not read', async () => {
    await threeRuns();
    unlinkSync(join(dir, 'audit-000002.ndjson'));
    symlinkSync('/dev/zero', join(dir, 'audit-000002.ndjson'));
    unlinkSync(join(dir, 'manifest-000003.json'));
    symlinkSync('/dev/zero', join(dir, 'manifest-000003.json'));
    const result = await verifyAuditArchive(dir);
    expect(result.problems.map((p) => p.message)).toEqual([
      'audit-000002.ndjson: a symbolic link, not a regular file (listed in manifest-000002.json)',
      'manifest-000003.json: a symbolic link, not a regular file',
    ]);
    expect(readlinkSync(join(dir, 'audit-000002.ndjson'))).toBe('/dev/zero');
  });

  it('a FIFO in place of a data file or a manifest is reported at once (nothing waits for a writer)', async () => {
    await threeRuns();
    for (const name of ['audit-000001.ndjson', 'manifest-000002.json']) {
      unlinkSync(join(dir, name));
      execFileSync('mkfifo', [join(dir, name)]);
    }
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^audit-000001\.ndjson: not a regular file \(a FIFO, device or folder\)/m);
    expect(run.stdout).toMatch(/^manifest-000002\.json: not a regular file/m);
  });

  it('a file name in a manifest that leaves the archive is not opened', async () => {
    await threeRuns();
    const path = join(dir, 'manifest-000001.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"audit-000001.ndjson"', '"../../etc/passwd"'));
    const result = await verifyAuditArchive(dir);
    // Refused when the manifest is read: a name sync never writes, so nothing is opened.
    expect(result.problems.map((p) => p.message)).toContain(
      'manifest-000001.json: not a manifest sync writes (files.0.name: must be a data file name such as audit-000001.ndjson or conflicts-000001.ndjson)',
    );
  });
});

describe('verify stops on the first SIGINT: exit 130', () => {
  let root: string;
  beforeAll(() => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), 'svc-verify-sigint-'));
  }, 180_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the built CLI, interrupted while it hashes a 4 GB file, ends at once with 130', async () => {
    const archive = join(root, 'archive');
    execFileSync('mkdir', [archive]);
    const big = join(archive, 'audit-000001.ndjson');
    writeFileSync(big, '');
    truncateSync(big, 4 * 1024 ** 3); // sparse: no disk used, minutes of reading
    const manifest = {
      version: 1,
      run: 1,
      range: { from: iso(T0), to: iso(T0 + HOUR) },
      query: { from: iso(T0), to: iso(T0 + HOUR) },
      serverNow: iso(T0 + HOUR),
      files: [
        {
          name: 'audit-000001.ndjson',
          // Listed at its size: verify reads a listed file only up to its size (plus one byte).
          bytes: 4 * 1024 ** 3,
          sha256: '0'.repeat(64),
          events: 1,
          firstOccurredAt: null,
          lastOccurredAt: null,
        },
      ],
      totalElements: 1,
      alreadyArchived: 0,
      countMatches: true,
      retentionGap: null,
      lateEvents: [],
      previous: null,
    };
    writeFileSync(join(archive, 'manifest-000001.json'), JSON.stringify(manifest));
    const child = spawnSvc(['audit', 'verify', archive], {});
    // Wait (without a timer) until the child has the big file open, then interrupt it.
    const fdDir = `/proc/${child.pid}/fd`;
    const opened = () => {
      try {
        return readdirSync(fdDir).some((fd) => {
          try {
            return readlinkSync(join(fdDir, fd)) === big;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    while (!opened()) await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGINT');
    expect(await exited(child)).toBe(130);
  }, 60_000);
});
