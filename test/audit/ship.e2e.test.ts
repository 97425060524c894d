import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipReceipt } from '../../src/node/index.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { type BulkStandIn, startBulkStandIn } from '../helpers/bulk-standin.js';
import { runSvc } from '../helpers/cli.js';
import { startHecStandIn } from '../helpers/hec-standin.js';
import { runBin } from '../helpers/run-bin.js';
import { startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';
import { startTinyproxy, tinyproxyMissing } from '../helpers/tinyproxy.js';
import { TEST_TLS } from '../helpers/tls-front.js';
import { bucketMachine, DAY, HOUR } from './helpers.js';

// `svc audit ship` as a user runs it (#44's acceptance): the built CLI against loopback stand-ins
// of `_bulk` and HEC, killed with SIGKILL in the middle and run again; through tinyproxy; to https
// with a test CA.

const server = useReferenceServer();
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const EVENTS = 200_000;
let root: string;
let dir: string;
/** Ids of the archive's events, from its files. */
let archivedIds: Set<string>;

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-ship-e2e-'));
  dir = join(root, 'audit');
  const s = server();
  s.admin.freezeClock(true);
  s.admin.setNow(T0);
  s.admin.addAuditEvents({ count: EVENTS, scope: 'project', from: iso(T0 - 10 * DAY), to: iso(T0 - HOUR) });
  const sync = await runSvc(
    ['audit', 'sync', '--dir', dir, '--gzip', '--since', iso(T0 - 11 * DAY), '--base-url', s.url],
    {
      env: { SVC_API_KEY: 'ak_demo_project' },
    },
  );
  expect(sync.code, sync.stderr).toBe(0);
  const all = await runSvc(['-o', 'ndjson', 'audit', 'search', '--dir', dir]);
  archivedIds = new Set(
    all.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id),
  );
  expect(archivedIds.size).toBe(EVENTS);
}, 240_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ship = (args: string[], env: Record<string, string> = {}) =>
  runBin(['-o', 'json', 'audit', 'ship', dir, ...args], { env: { HOME: root, ...env }, cwd: root });

describe('200,000 events, 10 % item 429s, 1 % item 400s and a kill -9 in the middle: run again, every event created once or dead-lettered', () => {
  let es: BulkStandIn;
  afterAll(() => es?.close());

  it('the second run ends with a receipt equal to the archive, exit 6, and the store holds each event once', async () => {
    let child: ReturnType<typeof spawnSvc> | undefined;
    let killed = false;
    es = await startBulkStandIn({
      itemRejectRate: 0.1,
      badItemRate: 0.01,
      seed: 44,
      keepSources: false,
      onRequest: () => {
        // In the middle: some 90 of the ~250 requests answered.
        if (!killed && es.requests >= 90) {
          killed = true;
          child?.kill('SIGKILL');
        }
      },
    });
    const deadLetter = join(root, 'dead.ndjson');
    const args = [
      'audit',
      'ship',
      dir,
      '--dest',
      es.url,
      '--kind',
      'elasticsearch',
      '--dead-letter',
      deadLetter,
    ];
    child = spawnSvc(['-o', 'json', ...args], { HOME: root });
    expect(await exited(child)).toBe('SIGKILL');
    const partial = es.count('svc-audit-events');
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(EVENTS);

    const second = await ship(args.slice(3));
    expect(second.code, second.stderr).toBe(6);
    const receipt = JSON.parse(second.stdout) as ShipReceipt;
    expect(receipt).toMatchObject({ archived: EVENTS, sent: EVENTS, complete: true, whole: true });
    expect(receipt.created + receipt.alreadyThere + receipt.deadLettered).toBe(EVENTS);
    const stored = new Set(es.docs('svc-audit-events').keys());
    const dead = readFileSync(deadLetter, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; status: number; reason: string });
    expect(dead).toHaveLength(receipt.deadLettered);
    expect(dead.every((d) => d.status === 400 && /document_parsing_exception/.test(d.reason))).toBe(true);
    const deadIds = new Set(dead.map((d) => d.id));
    expect(deadIds.size).toBe(dead.length);
    // Every event stored or dead-lettered, none both, none twice, nothing that is not the archive's.
    for (const id of deadIds) expect(stored.has(id)).toBe(false);
    expect(stored.size + deadIds.size).toBe(EVENTS);
    for (const id of archivedIds) expect(stored.has(id) || deadIds.has(id)).toBe(true);
    expect(receipt.created + receipt.alreadyThere).toBe(stored.size);
    expect(second.stderr).toMatch(/this run: \d+ created/);

    // A third run sends nothing and gives the same receipt.
    const requests = es.requests;
    const third = await ship(args.slice(3));
    expect(third.code).toBe(6);
    expect(JSON.parse(third.stdout)).toMatchObject({
      sent: EVENTS,
      created: receipt.created,
      thisRun: { requests: 0 },
    });
    expect(es.requests).toBe(requests);
  }, 240_000);
});

describe.skipIf(tinyproxyMissing !== undefined)(
  'through an HTTP proxy (HTTPS_PROXY, tinyproxy with Basic auth) to https with a test CA (--ca-file)',
  () => {
    it('every event of the range arrives through the proxy, and without the CA the error says how to add it', async () => {
      const proxy = await startTinyproxy({ auth: { user: 'ship', pass: 'pr0xy-pw-77' } });
      // The faults of the acceptance list here too: 10 % item 429s, 1 % item 400s.
      const es = await startBulkStandIn({
        tls: { key: TEST_TLS.key, cert: TEST_TLS.cert },
        auth: { apiKey: 'a2V5LWlkOmtleS1zZWNyZXQ=' },
        itemRejectRate: 0.1,
        badItemRate: 0.01,
        seed: 45,
      });
      try {
        const range = ['--from', iso(T0 - 2 * DAY)];
        const env = { HTTPS_PROXY: proxy.url, SVC_SHIP_API_KEY: 'a2V5LWlkOmtleS1zZWNyZXQ=' };
        const untrusted = await ship(['--dest', es.url, '--kind', 'elasticsearch', ...range], env);
        expect(untrusted.code).toBe(1);
        expect(untrusted.stderr).toMatch(/not trusted.*--ca-file/);
        expect(untrusted.stderr).not.toContain('a2V5LWlkOmtleS1zZWNyZXQ=');
        expect(untrusted.stderr).not.toContain('pr0xy-pw-77');
        const run = await ship(
          ['--dest', es.url, '--kind', 'elasticsearch', ...range, '--ca-file', TEST_TLS.caFile],
          env,
        );
        expect(run.code, run.stderr).toBe(6);
        const receipt = JSON.parse(run.stdout) as ShipReceipt;
        expect(receipt.complete).toBe(true);
        expect(receipt.archived).toBeGreaterThan(10_000);
        expect(receipt.thisRun.retried).toBeGreaterThan(0);
        expect(receipt.deadLettered).toBeGreaterThan(0);
        expect(receipt.created + receipt.deadLettered).toBe(receipt.archived);
        expect(es.count('svc-audit-events')).toBe(receipt.created);
        expect(proxy.requests().some((line) => line.startsWith(`CONNECT localhost:${es.port}`))).toBe(true);
      } finally {
        await es.close();
        await proxy.stop();
      }
    }, 120_000);
  },
);

describe('Splunk HEC from the CLI: SVC_SHIP_TOKEN, --ack, a receipt line', () => {
  it('without a token: one line naming SVC_SHIP_TOKEN, exit 2, nothing sent', async () => {
    const hec = await startHecStandIn();
    try {
      const run = await runBin(['audit', 'ship', dir, '--dest', hec.url, '--kind', 'splunk-hec'], {
        env: { HOME: root },
        cwd: root,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^svc: a Splunk HEC needs its token: set SVC_SHIP_TOKEN .*\n$/);
      expect(hec.requests).toBe(0);
    } finally {
      await hec.close();
    }
  });

  it('sends the range with acknowledgements and prints the receipt on stdout', async () => {
    const hec = await startHecStandIn({ ack: true, busyRate: 0.2, seed: 3 });
    try {
      const run = await runBin(
        [
          'audit',
          'ship',
          dir,
          '--dest',
          hec.url,
          '--kind',
          'splunk-hec',
          '--ack',
          '--from',
          iso(T0 - 6 * HOUR),
        ],
        { env: { HOME: root, SVC_SHIP_TOKEN: hec.token }, cwd: root },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^receipt: (\d+) of \1 events sent to http:\/\/127\.0\.0\.1:\d+, every event of the range: \1 created, 0 already there, 0 dead-lettered\n$/,
      );
      expect(run.stdout).not.toContain(hec.token);
      const count = Number(/of (\d+) events/.exec(run.stdout)?.[1]);
      expect(hec.events()).toHaveLength(count);
    } finally {
      await hec.close();
    }
  }, 120_000);
});

describe('a bucket archive keeps the checkpoint in the bucket: another machine goes on from it', () => {
  it('a second machine (fresh HOME and folder) finds the ship done and sends nothing', async () => {
    const s3 = await startS3Server();
    const es = await startBulkStandIn();
    try {
      await s3.createBucket('ship');
      const s = server();
      s.admin.reset();
      s.admin.freezeClock(true);
      s.admin.setNow(T0);
      s.admin.addAuditEvents({ count: 500, scope: 'project', from: iso(T0 - 2 * HOUR), to: iso(T0 - HOUR) });
      const machine = (): Record<string, string> & { HOME: string } => ({
        HOME: '',
        ...bucketMachine(root, s3.env, s.url),
      });
      const first = machine();
      const sync = await runBin(
        ['audit', 'sync', '--dir', 's3://ship/audit', '--since', iso(T0 - 3 * HOUR)],
        { env: first },
      );
      expect(sync.code, sync.stderr).toBe(0);
      const args = [
        '-o',
        'json',
        'audit',
        'ship',
        's3://ship/audit',
        '--dest',
        es.url,
        '--kind',
        'elasticsearch',
      ];
      const one = await runBin(args, { env: first, cwd: first.HOME });
      expect(one.code, one.stderr).toBe(0);
      expect(JSON.parse(one.stdout)).toMatchObject({ archived: 500, created: 500, complete: true });
      const objects = [...(await s3.objects('ship')).keys()];
      expect(objects.filter((key) => /^audit\/ship-[0-9a-f]{16}\.json$/.test(key))).toHaveLength(1);
      const other = machine();
      const two = await runBin(args, { env: other, cwd: other.HOME });
      expect(two.code, two.stderr).toBe(0);
      expect(JSON.parse(two.stdout)).toMatchObject({ archived: 500, created: 500, thisRun: { requests: 0 } });
      expect(es.count('svc-audit-events')).toBe(500);
    } finally {
      await es.close();
      await s3.close();
    }
  }, 120_000);
});
