import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/schemas.js';
import type { SvcClient } from '../../src/client.js';
import { AbortError, CheckpointError, SvcError } from '../../src/core/errors/error-classes.js';
import { type ShipAuditOptions, shipAuditArchive } from '../../src/node/index.js';
import { startBulkStandIn } from '../helpers/bulk-standin.js';
import { runSvc } from '../helpers/cli.js';
import { startHecStandIn } from '../helpers/hec-standin.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// `shipAuditArchive` (#44 item 2) against loopback stand-ins of `_bulk` and HEC that answer as the
// vendors document: each rule of the ship in a describe of its own.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const EVENTS = 600;
let dir: string;
let client: SvcClient;
const all: AuditEvent[] = [];
let scratch = 0;

beforeAll(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-ship-'));
  server().admin.addAuditEvents({
    count: EVENTS / 2,
    scope: 'project',
    from: iso(T0 - 20 * HOUR),
    to: iso(T0 - 2 * HOUR),
  });
  const env = { SVC_API_KEY: 'ak_demo_project' };
  const sync = (...args: string[]) =>
    runSvc(['audit', 'sync', '--dir', dir, ...args, '--base-url', server().url], { env });
  expect((await sync('--since', iso(T0 - 24 * HOUR))).code).toBe(0);
  server().admin.advanceClock(12 * HOUR);
  server().admin.addAuditEvents({
    count: EVENTS / 2,
    scope: 'project',
    from: iso(T0 + HOUR),
    to: iso(T0 + 10 * HOUR),
  });
  expect((await sync('--gzip')).code).toBe(0);
  for await (const event of client.audit.events({ from: iso(T0 - 24 * HOUR), to: iso(T0 + 12 * HOUR) }))
    all.push(event);
  expect(all).toHaveLength(EVENTS);
}, 60_000);
afterAll(() => dropScratch(dir, client));

/** Options every test starts from: no real waits (the waits asked for are recorded), a dead-letter file of its own. */
function fast(extra: Partial<ShipAuditOptions> & Pick<ShipAuditOptions, 'dest' | 'kind'>) {
  const waits: number[] = [];
  scratch += 1;
  const options: ShipAuditOptions = {
    deadLetter: join(dir, `..`, `${dir.split('/').pop()}-dead-${scratch}.ndjson`),
    sleep: async (ms) => {
      waits.push(ms);
    },
    batchEvents: 100,
    ...extra,
  };
  return { options, waits };
}

const ids = () => new Set(all.map((e) => e.id));

describe('each event is a create with its id as _id: created once, a replay is "already there"', () => {
  it('creates every event of the archive once, and a restart finds them all already there', async () => {
    const es = await startBulkStandIn();
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch' });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({
        archived: EVENTS,
        sent: EVENTS,
        created: EVENTS,
        alreadyThere: 0,
        deadLettered: 0,
        complete: true,
        whole: true,
      });
      expect(new Set(es.docs('svc-audit-events').keys())).toEqual(ids());
      // ECS documents by default.
      const doc = es.docs('svc-audit-events').get(all[0]?.id as string) as Record<string, unknown>;
      expect(doc['@timestamp']).toBe(all[0]?.occurredAt);
      // Done: the checkpoint says so, nothing is sent again.
      const before = es.requests;
      const again = await shipAuditArchive(dir, options);
      expect(again).toMatchObject({
        sent: EVENTS,
        created: EVENTS,
        complete: true,
        thisRun: { created: 0, requests: 0 },
      });
      expect(es.requests).toBe(before);
      const restarted = await shipAuditArchive(dir, { ...options, restart: true });
      expect(restarted).toMatchObject({ sent: EVENTS, created: 0, alreadyThere: EVENTS, complete: true });
      expect(es.count('svc-audit-events')).toBe(EVENTS);
      expect(es.duplicatesRefused).toBe(EVENTS);
    } finally {
      await es.close();
    }
  });

  it('raw sends the archived line byte for byte, into the index asked for', async () => {
    const es = await startBulkStandIn({ flavor: 'opensearch' });
    try {
      const { options } = fast({ dest: es.url, kind: 'opensearch', format: 'raw', index: 'audit-raw' });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ created: EVENTS, index: 'audit-raw', format: 'raw' });
      const first = all[0] as AuditEvent;
      expect(es.docs('audit-raw').get(first.id)).toEqual(first);
    } finally {
      await es.close();
    }
  });
});

describe('items answered 429 are sent again; items refused with another 4xx go to the dead-letter file with their reason', () => {
  it('ends with every event created once or dead-lettered, the receipt equal to the archive', async () => {
    const es = await startBulkStandIn({ itemRejectRate: 0.1, badItemRate: 0.05, seed: 7 });
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch' });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt.complete).toBe(true);
      expect(receipt.deadLettered).toBeGreaterThan(0);
      expect(receipt.created + receipt.deadLettered).toBe(EVENTS);
      expect(receipt.thisRun.retried).toBeGreaterThan(0);
      const dead = readFileSync(receipt.deadLetterFile as string, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(dead).toHaveLength(receipt.deadLettered);
      for (const line of dead) {
        expect(line).toMatchObject({ status: 400, reason: expect.stringMatching(/parsing_exception/) });
        expect(es.docs('svc-audit-events').has(line.id)).toBe(false);
        expect(line.document['event']['id']).toBe(line.id);
      }
      const stored = es.docs('svc-audit-events');
      expect(stored.size).toBe(receipt.created);
      for (const [id, attempts] of es.createAttempts('svc-audit-events'))
        if (stored.has(id)) expect(attempts).toBeGreaterThanOrEqual(1);
    } finally {
      await es.close();
    }
  });

  it('waits (backoff, Retry-After) only when a round was mostly refused', async () => {
    const es = await startBulkStandIn({ wholeRequest503Rate: 0.5, retryAfterSeconds: 3, seed: 3 });
    try {
      const { options, waits } = fast({ dest: es.url, kind: 'elasticsearch' });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ created: EVENTS, complete: true });
      expect(waits.length).toBeGreaterThan(0);
      expect(waits.every((ms) => ms === 3000)).toBe(true);
    } finally {
      await es.close();
    }
  });
});

describe('a body over the destination limit (413) is split until it fits; one document that never fits is dead-lettered', () => {
  it('splits', async () => {
    const es = await startBulkStandIn({ maxBodyBytes: 20_000 });
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch' });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ created: EVENTS, complete: true, deadLettered: 0 });
      expect(receipt.thisRun.requests).toBeGreaterThan(EVENTS / 100);
    } finally {
      await es.close();
    }
  });
  it('dead-letters a document larger than the largest body', async () => {
    const es = await startBulkStandIn({ maxBodyBytes: 300 });
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch', maxBatchBytes: 1024 });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ complete: true, created: 0, deadLettered: EVENTS });
      const first = JSON.parse(
        readFileSync(receipt.deadLetterFile as string, 'utf8').split('\n')[0] as string,
      );
      expect(first).toMatchObject({ status: 413 });
    } finally {
      await es.close();
    }
  });
});

describe('credentials: an API key or Basic, refused credentials end the run with the checkpoint kept', () => {
  it('sends ApiKey and Basic, and a wrong one is a ship_auth error naming no secret', async () => {
    const es = await startBulkStandIn({
      auth: { apiKey: 'c2VjcmV0LWtleS1pZDpzZWNyZXQ=', basic: { username: 'elastic', password: 'pw-123456' } },
    });
    try {
      const a = fast({
        dest: es.url,
        kind: 'elasticsearch',
        credentials: { apiKey: 'c2VjcmV0LWtleS1pZDpzZWNyZXQ=' },
      });
      expect((await shipAuditArchive(dir, a.options)).created).toBe(EVENTS);
      const b = fast({
        dest: es.url,
        kind: 'elasticsearch',
        index: 'basic',
        credentials: { username: 'elastic', password: 'pw-123456' },
      });
      expect((await shipAuditArchive(dir, b.options)).created).toBe(EVENTS);
      const c = fast({
        dest: es.url,
        kind: 'elasticsearch',
        index: 'wrong',
        credentials: { username: 'elastic', password: 'not-it-999' },
      });
      const error = await shipAuditArchive(dir, c.options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcError);
      expect((error as SvcError).code).toBe('ship_auth');
      expect((error as Error).message).not.toContain('not-it-999');
    } finally {
      await es.close();
    }
  });
  it('a folder that is not an archive is refused and keeps no checkpoint', async () => {
    const es = await startBulkStandIn();
    const plain = mkdtempSync(join(tmpdir(), 'svc-not-an-archive-'));
    try {
      writeFileSync(join(plain, 'notes.txt'), 'hello');
      const error = await shipAuditArchive(plain, { dest: es.url, kind: 'elasticsearch' }).catch(
        (e: unknown) => e,
      );
      expect((error as SvcError).message).toMatch(/no manifest/);
      expect(readdirSync(plain)).toEqual(['notes.txt']);
      expect(es.requests).toBe(0);
    } finally {
      rmSync(plain, { recursive: true, force: true });
      await es.close();
    }
  });
  it('refuses a URL with credentials in it, a bad index, and a HEC without a token, before sending', async () => {
    const refused = (options: ShipAuditOptions) =>
      shipAuditArchive(dir, options).then(
        () => 'sent',
        (e: SvcError) => [e.code, e.message],
      );
    expect(await refused({ dest: 'http://elastic:hunter22@127.0.0.1:1', kind: 'elasticsearch' })).toEqual([
      'config',
      expect.not.stringContaining('hunter22'),
    ]);
    expect(await refused({ dest: 'http://127.0.0.1:1', kind: 'elasticsearch', index: 'Has Space' })).toEqual([
      'config',
      expect.stringMatching(/index/),
    ]);
    expect(await refused({ dest: 'http://127.0.0.1:1', kind: 'splunk-hec' })).toEqual([
      'config',
      expect.stringMatching(/token/),
    ]);
  });
});

describe('the checkpoint lives in the archive: a stopped run goes on where it stopped, nothing lost, nothing twice', () => {
  it('an interrupted run and the next one add up to the archive, each event created once', async () => {
    const es = await startBulkStandIn({ itemRejectRate: 0.1, seed: 11 });
    try {
      const controller = new AbortController();
      let rounds = 0;
      const { options } = fast({ dest: es.url, kind: 'elasticsearch', index: 'resumed' });
      const stopped = await shipAuditArchive(dir, {
        ...options,
        signal: controller.signal,
        onProgress: () => {
          rounds += 1;
          if (rounds === 3) controller.abort();
        },
      }).catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(AbortError);
      const partial = es.count('resumed');
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(EVENTS);
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ complete: true, sent: EVENTS, deadLettered: 0 });
      expect(receipt.created + receipt.alreadyThere).toBe(EVENTS);
      expect(new Set(es.docs('resumed').keys())).toEqual(ids());
    } finally {
      await es.close();
    }
  });

  it('a run for another format or range of the same destination is refused; restart starts over', async () => {
    const es = await startBulkStandIn();
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch', index: 'formats' });
      await shipAuditArchive(dir, options);
      const other = await shipAuditArchive(dir, { ...options, format: 'ocsf' }).catch((e: unknown) => e);
      expect(other).toBeInstanceOf(CheckpointError);
      expect((other as Error).message).toMatch(/format ecs.*--restart/);
      const ranged = await shipAuditArchive(dir, { ...options, from: iso(T0) }).catch((e: unknown) => e);
      expect(ranged).toBeInstanceOf(CheckpointError);
    } finally {
      await es.close();
    }
  });

  it('a range sends only its events, and the receipt counts the range', async () => {
    const es = await startBulkStandIn();
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch', index: 'ranged', from: iso(T0) });
      const receipt = await shipAuditArchive(dir, options);
      const inRange = all.filter((e) => Date.parse(e.occurredAt) >= T0);
      expect(receipt).toMatchObject({ archived: inRange.length, created: inRange.length, complete: true });
      expect(new Set(es.docs('ranged').keys())).toEqual(new Set(inRange.map((e) => e.id)));
    } finally {
      await es.close();
    }
  });

  it('gives up after retryForMs of refusals, with the checkpoint saved, and the next run goes on', async () => {
    let now = 0;
    const es = await startBulkStandIn({ wholeRequest429Rate: 1 });
    try {
      const { options } = fast({ dest: es.url, kind: 'elasticsearch', index: 'gave-up' });
      const error = await shipAuditArchive(dir, {
        ...options,
        retryForMs: 10_000,
        now: () => now,
        sleep: async (ms) => {
          now += ms;
        },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcError);
      expect((error as SvcError).code).toBe('ship_gave_up');
      expect((error as Error).message).toMatch(/still refuses 100 documents after 10 s/);
    } finally {
      await es.close();
    }
  });
});

describe('Splunk HEC: Splunk TOKEN, time from occurredAt, busy (code 9) sent again, acknowledgements per channel', () => {
  it('sends every event with its time and sourcetype, and sends a busy request again', async () => {
    const hec = await startHecStandIn({ busyRate: 0.3, seed: 5 });
    try {
      const { options } = fast({ dest: hec.url, kind: 'splunk-hec', credentials: { token: hec.token } });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ created: EVENTS, complete: true, format: 'raw', index: null });
      const events = hec.events();
      expect(events).toHaveLength(EVENTS);
      const first = events.find((e) => (e.event as AuditEvent).id === all[0]?.id);
      expect(first).toMatchObject({ sourcetype: 'svc:audit', index: 'main', event: all[0] });
      expect(Number(first?.time) * 1000).toBeCloseTo(Date.parse(all[0]?.occurredAt as string), -1);
    } finally {
      await hec.close();
    }
  });
  it('with ack, counts events only once acknowledged and sends again those never acknowledged', async () => {
    const hec = await startHecStandIn({ ack: true, ackAfterPolls: 2, lostAckRate: 0.2, seed: 9 });
    try {
      const { options } = fast({
        dest: hec.url,
        kind: 'splunk-hec',
        ack: true,
        credentials: { token: hec.token },
      });
      const receipt = await shipAuditArchive(dir, options);
      expect(receipt).toMatchObject({ created: EVENTS, complete: true });
      const seen = hec.events().map((e) => (e.event as AuditEvent).id);
      expect(seen).toHaveLength(EVENTS);
      expect(new Set(seen)).toEqual(ids());
    } finally {
      await hec.close();
    }
  });
  it('a wrong token is a ship_auth error', async () => {
    const hec = await startHecStandIn();
    try {
      const { options } = fast({
        dest: hec.url,
        kind: 'splunk-hec',
        credentials: { token: 'nope-nope-nope' },
      });
      const error = await shipAuditArchive(dir, options).catch((e: unknown) => e);
      expect((error as SvcError).code).toBe('ship_auth');
    } finally {
      await hec.close();
    }
  });
});

describe("an answer that is not the protocol's ends the run in one line, the checkpoint kept", () => {
  /** A server that answers every request with `status` and `body`. */
  async function answering(status: number, body: string | ((req: IncomingMessage) => string)) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(typeof body === 'string' ? body : body(req)),
      );
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, close: () => new Promise<void>((done) => server.close(() => done())) };
  }
  const cases: Array<[string, number, string, string, RegExp]> = [
    [
      '200 that is not JSON',
      200,
      '<html>proxy login</html>',
      'ship_malformed',
      /answered _bulk with not JSON/,
    ],
    [
      '200 with fewer items than documents',
      200,
      '{"errors":false,"items":[{"create":{"status":201}}]}',
      'ship_malformed',
      /1 items for 100 documents/,
    ],
    ['200 that is some other JSON', 200, '{"acknowledged":true}', 'ship_malformed', /not a _bulk answer/],
    ['404 (not a cluster)', 404, '{"error":"no handler"}', 'ship_refused', /no _bulk API.*404/],
    [
      '400 for the request',
      400,
      '{"error":{"type":"illegal_argument_exception","reason":"bad index"}}',
      'ship_refused',
      /refused the _bulk request \(400: illegal_argument_exception: bad index\)/,
    ],
  ];
  for (const [name, status, body, code, message] of cases)
    it(name, async () => {
      const dest = await answering(status, body);
      try {
        const { options } = fast({ dest: dest.url, kind: 'elasticsearch', index: `odd-${status}` });
        const error = await shipAuditArchive(dir, options).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SvcError);
        expect([(error as SvcError).code, (error as Error).message]).toEqual([
          code,
          expect.stringMatching(message),
        ]);
        expect((error as Error).message).not.toContain('\n');
      } finally {
        await dest.close();
      }
    });
});
