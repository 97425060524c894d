import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { AbortError, OutputPathError } from '../../src/core/errors/index.js';
import { syncAuditArchive } from '../../src/node/index.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// The sync's work folder (`.sync-work` of a folder archive; a bucket's is tested as two users in
// test/security/work-folder-two-user.e2e.test.ts) and the part files a run creates in it.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const posix = process.platform !== 'win32';
let dir: string;
let client: SvcClient;

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-work-folder-'));
  server().admin.addAuditEvents({
    count: 30,
    scope: 'project',
    from: iso(T0 - 2 * HOUR),
    to: iso(T0 - HOUR),
  });
});
afterEach(() => dropScratch(dir, client));

const sync = () => syncAuditArchive(client.audit, { dir, since: iso(T0 - 3 * HOUR) });

describe('a part no state file names is never written into: removed, then created exclusively 0600', () => {
  it('a leftover part hard-linked to a file outside: the outside file keeps its bytes, the run its events', async () => {
    const work = join(dir, '.sync-work');
    mkdirSync(work, { mode: 0o700 });
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'not the export\n', { mode: 0o600 });
    linkSync(outside, join(work, 'run-000001.ndjson'));
    const result = await sync();
    expect(result.events).toBe(30);
    expect(readFileSync(outside, 'utf8')).toBe('not the export\n');
    expect(statSync(outside).nlink).toBe(1);
    const data = readFileSync(join(dir, result.file as string), 'utf8');
    expect(data).not.toContain('not the export');
  });

  it('the part is created 0600 and the work folder is gone after the run', async () => {
    const modes: number[] = [];
    const result = await syncAuditArchive(client.audit, {
      dir,
      since: iso(T0 - 3 * HOUR),
      pageSize: 10,
      onProgress: () => {
        modes.push(statSync(join(dir, '.sync-work', 'run-000001.ndjson')).mode & 0o777);
      },
    });
    expect(result.status).toBe('synced');
    if (posix) expect(new Set(modes)).toEqual(new Set([0o600]));
    expect(readdirSync(dir)).not.toContain('.sync-work');
  });
});

describe.runIf(posix)('a work folder open to others is refused in one line, and nothing is written', () => {
  it('.sync-work of mode 0777: an OutputPathError naming it and chmod 700; no run file, no manifest', async () => {
    const work = join(dir, '.sync-work');
    mkdirSync(work);
    chmodSync(work, 0o777);
    const error = await sync().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as Error).message).toBe(
      `work folder ${work} is open to other users (mode 0777); run chmod 700 on it, or give a folder of your own with --work-dir`,
    );
    expect(readdirSync(dir).filter((name) => /^(audit|manifest)-/.test(name))).toEqual([]);
    expect(readdirSync(work)).toEqual([]);
  });
});

describe('the default work folder of a bucket is the user cache folder, and a killed run resumes its export there', () => {
  let s3: S3TestServer;
  const saved = process.env.XDG_CACHE_HOME;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  });

  it.runIf(posix)(
    'run 1 stopped after 2 pages leaves its part under $XDG_CACHE_HOME/svc (0700); run 2 continues at page 3',
    async () => {
      await s3.createBucket('resume');
      const cache = join(dir, 'cache');
      process.env.XDG_CACHE_HOME = cache;
      const s3Settings = s3.storeSettings();
      const controller = new AbortController();
      const first = syncAuditArchive(client.audit, {
        dir: 's3://resume/a',
        s3: s3Settings,
        since: iso(T0 - 3 * HOUR),
        pageSize: 5,
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.pages === 2) controller.abort();
        },
      });
      await expect(first).rejects.toBeInstanceOf(AbortError);
      const root = join(cache, 'svc');
      expect(statSync(root).mode & 0o777).toBe(0o700);
      const [work] = readdirSync(root);
      expect(work).toMatch(/^svc-sync-[0-9a-f]{16}$/);
      expect(statSync(join(root, work as string)).mode & 0o777).toBe(0o700);
      const pages: number[] = [];
      const second = await syncAuditArchive(client.audit, {
        dir: 's3://resume/a',
        s3: s3Settings,
        onProgress: (progress) => pages.push(progress.pages),
      });
      expect(second.resumed).toBe(true);
      expect(second.events).toBe(30);
      expect(pages[0]).toBe(3);
      expect(existsSync(join(root, work as string))).toBe(false);
    },
  );
});
