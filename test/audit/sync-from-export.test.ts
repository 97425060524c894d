import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { AbortError } from '../../src/core/errors/index.js';
import { verifyAuditArchive } from '../../src/node/audit-archive/verify.js';
import type { ExportHeld } from '../../src/node/audit-export/sink.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import type { SyncApi, SyncOptions } from '../../src/node/audit-sync/options.js';
import { runSync } from '../../src/node/audit-sync/sync.js';
import { exportAuditEvents, syncAuditArchive } from '../../src/node/index.js';
import { startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const FORGED = `{"id":"forged","occurredAt":"${iso(T0 - 90 * 60_000)}","action":"forged"}\n`;
let dir: string;
let client: SvcClient;
const scratch: string[] = [];

beforeEach(() => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-sync-from-export-'));
});
afterEach(async () => {
  await dropScratch(dir, client);
  for (const path of scratch.splice(0)) rmSync(path, { recursive: true, force: true });
});

const add = (count: number) =>
  server().admin.addAuditEvents({ count, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0 - HOUR) });
const since = iso(T0 - 3 * HOUR);
const another = () => {
  const path = mkdtempSync(join(tmpdir(), 'svc-sync-from-export-'));
  scratch.push(path);
  return path;
};

/**
 * The client's audit API for `runSync`, with `afterExport` run on the export's options once it
 * returned, and every `held` the export hands its sink recorded.
 */
function api(held: ExportHeld[], afterExport: (output: string) => void = () => {}): SyncApi {
  return {
    listEvents: (params, options) => client.audit.listEvents(params, options),
    exportEvents: async (options) => {
      const sink = options.sink;
      const result = await exportAuditEvents(client.audit, {
        ...options,
        ...(sink && {
          sink: {
            start: (h) => {
              held.push(h);
              return sink.start(h);
            },
            page: (events) => sink.page(events),
          },
        }),
      });
      afterExport(options.output as string);
      return result;
    },
  };
}

describe("the run's objects are written from the events the export hands over, not from its part read back", () => {
  it('a part overwritten with a forged line once the export returned: the run file is the export, as a plain sync writes it', async () => {
    add(1500);
    const plain = another();
    await syncAuditArchive(client.audit, { dir: plain, since, pageSize: 500 });
    const held: ExportHeld[] = [];
    const run = await runSync(
      api(held, (output) => writeFileSync(output, FORGED)),
      { dir, since, pageSize: 500 },
    );
    expect(run).toMatchObject({ status: 'synced', events: 1500 });
    expect(held).toEqual([{ bytes: 0, events: 0 }]);
    const file = readFileSync(join(dir, 'audit-000001.ndjson'));
    expect(file.toString('utf8')).not.toContain('forged');
    expect(file.equals(readFileSync(join(plain, 'audit-000001.ndjson')))).toBe(true);
  });
});

describe('a resumed run reads back from its part only what its export held, and writes the bytes of an uninterrupted run', () => {
  it('stopped after 2 of 6 pages, then rerun: held is 2 pages, the file and manifest those of a run never stopped', async () => {
    add(3000);
    const plain = another();
    await syncAuditArchive(client.audit, { dir: plain, since, pageSize: 500 });
    const held: ExportHeld[] = [];
    const stop = new AbortController();
    const options: SyncOptions = { dir, since, pageSize: 500 };
    const stopped = runSync(api(held), {
      ...options,
      signal: stop.signal,
      onProgress: (p) => p.pages === 2 && stop.abort(),
    });
    await expect(stopped).rejects.toBeInstanceOf(AbortError);
    const resumed = await runSync(api(held), options);
    expect(resumed).toMatchObject({ resumed: true, events: 3000 });
    expect(held.map((h) => h.events)).toEqual([0, 1000]);
    for (const name of ['audit-000001.ndjson', 'manifest-000001.json'])
      expect(readFileSync(join(dir, name)).equals(readFileSync(join(plain, name))), name).toBe(true);
  });
});

describe('a bucket upload refused while the export runs stops the run: nothing is left up, the next run resumes', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
    await s3.createBucket('refused');
  });
  afterAll(async () => {
    await s3?.close();
  });
  const settings = (endpoint: string): S3StoreSettings => ({
    endpoint,
    region: s3.region,
    credentials: s3.credentials,
  });

  it('AccessDenied to every part of a 12,000-event run (multipart): one line naming the object, then a whole run', async () => {
    add(12_000);
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      answers: [
        { fixture: 'access-denied', method: 'PUT', path: /audit-000001\.ndjson$/, query: 'partNumber' },
      ],
    });
    const url = 's3://refused/audit';
    const options = { dir: url, since, pageSize: 200, workDir: another() };
    try {
      const error = (await syncAuditArchive(client.audit, { ...options, s3: settings(proxy.endpoint) }).catch(
        (e: unknown) => e,
      )) as Error;
      expect(error.message).toMatch(/^s3:\/\/refused\/audit\/audit-000001\.ndjson: /);
      expect(error.message.split('\n')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
    expect([...(await s3.objects('refused')).keys()].filter((k) => /audit-|manifest-/.test(k))).toEqual([]);
    expect(await s3.uploads('refused')).toEqual([]);
    const next = await syncAuditArchive(client.audit, { ...options, s3: settings(s3.endpoint) });
    expect(next).toMatchObject({ status: 'synced', resumed: true, events: 12_000 });
    expect((await verifyAuditArchive(url, { s3: settings(s3.endpoint) })).problems).toEqual([]);
  }, 120_000);
});
