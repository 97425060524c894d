import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR, type WirePage } from './helpers.js';

const server = useReferenceServer();
const MIN = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;
let hostile: Server;
let hostileUrl: string;
/** How the hostile server changes a page of events before it answers. */
let mutate: (page: WirePage) => void = () => {};

/** A loopback server in front of the reference server that rewrites the event pages of exports. */
beforeEach(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-hostile-'));
  mutate = () => {};
  hostile = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(server().url + (req.url ?? '/'), {
        headers: { authorization: String(req.headers.authorization ?? '') },
      });
      let body = await upstream.text();
      const url = new URL(req.url ?? '/', 'http://x');
      if (upstream.ok && url.pathname === '/platform/v1/events' && url.searchParams.get('pageSize') !== '1') {
        const page = JSON.parse(body) as WirePage;
        mutate(page);
        body = JSON.stringify(page);
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
    })();
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => hostile.close(resolve));
  await dropScratch(dir, client);
});

const sync = (...extra: string[]) =>
  runSvc(['audit', 'sync', '--dir', dir, '--base-url', hostileUrl, ...extra], {
    env: { SVC_API_KEY: 'ak_demo_project' },
  });
const lines = (name: string) =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; occurredAt: string; [key: string]: unknown });

describe('only what was asked is archived: events outside the range are counted and reported, not written', () => {
  it('leaves out events dated 1999 and 2099 from a query of one morning', async () => {
    server().admin.addAuditEvents({
      count: 20,
      scope: 'project',
      from: iso(T0 - HOUR),
      to: iso(T0 - 10 * MIN),
    });
    mutate = (page) => {
      const [first] = page.content;
      if (!first) return;
      page.content.unshift({ ...first, id: 'evt-from-2099', occurredAt: '2099-01-01T00:00:00.000Z' });
      page.content.push({ ...first, id: 'evt-from-1999', occurredAt: '1999-01-01T00:00:00.000Z' });
      page.totalElements += 2;
    };
    const run = await sync('--since', iso(T0 - 2 * HOUR));
    expect(run.stderr).toMatch(/the API returned 2 events outside the range asked .*not archived/);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000001.json'), 'utf8'));
    expect(manifest).toMatchObject({ outOfRange: 2, countMatches: true });
    expect(manifest.files[0].events).toBe(20);
    expect(manifest.files[0].firstOccurredAt < iso(T0)).toBe(true);
    expect(lines('audit-000001.ndjson').map((e) => e.id)).not.toContain('evt-from-2099');
    expect(run.code).toBe(0);
  });
});

describe('the same id with other content is a conflict: kept apart, reported, exit 5; nothing is dropped silently', () => {
  it('keeps the second version in the conflicts file named by the manifest; ack turns the next night green', async () => {
    server().admin.addAuditEvents({
      count: 20,
      scope: 'project',
      from: iso(T0 - HOUR),
      to: iso(T0 - 12 * MIN),
    });
    expect((await sync('--since', iso(T0 - 2 * HOUR))).code).toBe(0);
    const archived = lines('audit-000001.ndjson')[0] as { id: string; occurredAt: string };
    server().admin.advanceClock(HOUR);
    // The archived event inside the overlap comes again, changed; a repeat of another one unchanged.
    mutate = (page) => {
      const index = page.content.findIndex((e) => e.id === archived.id);
      const event = page.content[index];
      if (event) page.content[index] = { ...event, tampered: true };
    };
    const night2 = await sync();
    expect(night2.code).toBe(5);
    expect(night2.stderr).toMatch(
      /1 events came with an id the archive holds but other content: kept in conflicts-000002\.ndjson/,
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000002.json'), 'utf8'));
    expect(manifest.conflicts).toMatchObject({ name: 'conflicts-000002.ndjson', events: 1 });
    expect(lines('conflicts-000002.ndjson')).toMatchObject([{ id: archived.id, tampered: true }]);
    expect(lines('audit-000002.ndjson').map((e) => e.id)).not.toContain(archived.id);
    const verify = await runSvc(['audit', 'verify', dir]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      /^manifest-000002\.json: 1 events kept apart in the run.s conflicts file .*gap run2\.conflicts/m,
    );

    mutate = () => {};
    const ack = await runSvc([
      'audit',
      'gaps',
      'ack',
      'run2.conflicts',
      '--dir',
      dir,
      '--reason',
      'checked by hand',
    ]);
    expect(ack.code).toBe(0);
    server().admin.advanceClock(HOUR);
    expect((await sync()).code).toBe(0);
    expect((await runSvc(['audit', 'verify', dir])).code).toBe(0);
  });

  it('one id twice in one run, pages apart, with other content: the first is archived, the second is a conflict', async () => {
    server().admin.addAuditEvents({
      count: 5,
      scope: 'project',
      from: iso(T0 - HOUR),
      to: iso(T0 - 12 * MIN),
    });
    let newest: WirePage['content'][number] | undefined;
    mutate = (page) => {
      // Repeats on the next page are taken as paging overlap by the exporter; two pages later they are not.
      if (page.page === 0) newest = page.content[0];
      if (page.page === 2 && newest) page.content.push({ ...newest, changed: 1 });
      page.totalElements += 1;
    };
    const run = await sync('--since', iso(T0 - 2 * HOUR), '--page-size', '2');
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/1 events came with an id the archive holds but other content/);
    expect(lines('audit-000001.ndjson')).toHaveLength(5);
    expect(lines('conflicts-000001.ndjson')).toMatchObject([{ id: newest?.id, changed: 1 }]);
  });
});
