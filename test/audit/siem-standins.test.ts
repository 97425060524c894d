import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type BulkStandIn, type BulkStandInOptions, startBulkStandIn } from '../helpers/bulk-standin.js';
import { type HecStandIn, type HecStandInOptions, startHecStandIn } from '../helpers/hec-standin.js';
import { TEST_TLS } from '../helpers/tls-front.js';

// The loopback stand-ins of Elasticsearch/OpenSearch `_bulk` and Splunk HEC that the SIEM shipper's
// tests and the bench send to: each rule here is an answer the vendors document, asked with fetch.

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});
async function bulkStandIn(options?: BulkStandInOptions): Promise<BulkStandIn> {
  const server = await startBulkStandIn(options);
  open.push(server);
  return server;
}
async function hecStandIn(options?: HecStandInOptions): Promise<HecStandIn> {
  const server = await startHecStandIn(options);
  open.push(server);
  return server;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the checks
  json: any;
}
async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

const ndjson = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
const creates = (index: string, ids: string[]) =>
  ndjson(ids.flatMap((id) => [{ create: { _index: index, _id: id } }, { id, message: `event ${id}` }]));
const NDJSON = { 'content-type': 'application/x-ndjson' };
const sendBulk = (server: BulkStandIn, body: string, path = '/_bulk', headers: Record<string, string> = {}) =>
  post(`${server.url}${path}`, body, { ...NDJSON, ...headers });
const statuses = (answer: Answer): number[] =>
  answer.json.items.map(
    (item: Record<string, { status: number }>) => (Object.values(item)[0] as { status: number }).status,
  );
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `id-${from + i}`);

describe('_bulk create: 201 for a new id, 409 version_conflict_engine_exception for one the index holds', () => {
  it('answers each item in order and stores only the first of each id', async () => {
    const seen: unknown[] = [];
    const server = await bulkStandIn({ onRequest: (info) => seen.push(info) });
    const first = await sendBulk(server, creates('audit', ['a', 'b', 'c']), '/_bulk?refresh=false');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(first.json.errors).toBe(false);
    expect(first.json.items[0]).toEqual({
      create: {
        _index: 'audit',
        _id: 'a',
        _version: 1,
        result: 'created',
        _shards: { total: 2, successful: 1, failed: 0 },
        _seq_no: 0,
        _primary_term: 1,
        status: 201,
      },
    });
    expect(first.json.items.map((item: { create: { _seq_no: number } }) => item.create._seq_no)).toEqual([
      0, 1, 2,
    ]);

    const replay = await sendBulk(server, creates('audit', ['c', 'd']));
    expect(replay.json.errors).toBe(true);
    expect(statuses(replay)).toEqual([409, 201]);
    expect(replay.json.items[0].create).toMatchObject({
      _index: 'audit',
      _id: 'c',
      status: 409,
      error: {
        type: 'version_conflict_engine_exception',
        reason: '[c]: version conflict, document already exists (current version [1])',
        index: 'audit',
        shard: '0',
      },
    });
    expect(server.count('audit')).toBe(4);
    expect(server.docs('audit').get('c')).toEqual({ id: 'c', message: 'event c' });
    expect([...server.docs('audit').keys()]).toEqual(['a', 'b', 'c', 'd']);
    expect(server.createAttempts('audit').get('c')).toBe(2);
    expect(server.duplicatesRefused).toBe(1);
    expect(server.requests).toBe(2);
    expect(server.bytesReceived).toBe(
      Buffer.byteLength(creates('audit', ['a', 'b', 'c'])) + Buffer.byteLength(creates('audit', ['c', 'd'])),
    );
    expect(seen[0]).toEqual({
      path: '/_bulk?refresh=false',
      status: 200,
      bytes: expect.any(Number),
      items: 3,
    });
  });

  it('index replaces a document: 201 created, then 200 updated with the next version', async () => {
    const server = await bulkStandIn();
    const body = ndjson([{ index: { _index: 'i', _id: 'x' } }, { n: 1 }]);
    expect((await sendBulk(server, body)).json.items[0].index).toMatchObject({
      result: 'created',
      status: 201,
    });
    const again = await sendBulk(server, ndjson([{ index: { _index: 'i', _id: 'x' } }, { n: 2 }]));
    expect(again.json.items[0].index).toMatchObject({ _version: 2, result: 'updated', status: 200 });
    expect(server.docs('i').get('x')).toEqual({ n: 2 });
    const create = await sendBulk(server, ndjson([{ create: { _index: 'i', _id: 'x' } }, { n: 3 }]));
    expect(create.json.items[0].create.error.reason).toContain('(current version [2])');
  });
});

describe('_bulk index: from the action line, else from the path, else the request is refused', () => {
  it('takes the path index for an action without _index', async () => {
    const server = await bulkStandIn();
    const body = ndjson([
      { create: { _id: '1' } },
      { a: 1 },
      { create: { _index: 'other', _id: '2' } },
      { a: 2 },
    ]);
    const answer = await sendBulk(server, body, '/logs/_bulk');
    expect(statuses(answer)).toEqual([201, 201]);
    expect(server.count('logs')).toBe(1);
    expect(server.count('other')).toBe(1);
  });

  it('refuses the whole request (400 action_request_validation_exception) when an action has no index', async () => {
    const server = await bulkStandIn();
    const body = ndjson([
      { create: { _index: 'i', _id: '1' } },
      { a: 1 },
      { create: { _id: '2' } },
      { a: 2 },
    ]);
    const answer = await sendBulk(server, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: {
        type: 'action_request_validation_exception',
        reason: 'Validation Failed: 1: index is missing;',
      },
      status: 400,
    });
    expect(server.count('i')).toBe(0);
  });

  it('makes up an id for an action without _id', async () => {
    const server = await bulkStandIn();
    const answer = await sendBulk(server, ndjson([{ create: { _index: 'i' } }, { a: 1 }]));
    expect(answer.json.items[0].create._id).toMatch(/^\S{20}$/);
    expect(server.count('i')).toBe(1);
  });
});

describe('_bulk body: NDJSON with a final newline', () => {
  it('answers 406 to another Content-Type, in Elasticsearch words', async () => {
    const server = await bulkStandIn();
    const plain = await post(`${server.url}/_bulk`, creates('i', ['1']), { 'content-type': 'text/plain' });
    expect(plain.status).toBe(406);
    expect(plain.json).toEqual({ error: 'Content-Type header [text/plain] is not supported', status: 406 });
    const none = await post(`${server.url}/_bulk`, new TextEncoder().encode(creates('i', ['1'])));
    expect(none.json).toEqual({ error: 'Content-Type header is missing', status: 406 });
    const compatible = 'application/vnd.elasticsearch+x-ndjson; compatible-with=8';
    const v8 = await post(`${server.url}/_bulk`, creates('i', ['1']), {
      'content-type': compatible,
      accept: 'application/vnd.elasticsearch+json; compatible-with=8',
    });
    expect(v8.status).toBe(200);
    expect(v8.headers.get('content-type')).toBe('application/vnd.elasticsearch+json;compatible-with=8');
    expect(server.count('i')).toBe(1);
  });

  it('answers 400 to a body without the final newline and stores nothing', async () => {
    const server = await bulkStandIn();
    const answer = await sendBulk(server, creates('i', ['1']).trimEnd());
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'The bulk request must be terminated by a newline [\\n]',
    });
    expect(server.count('i')).toBe(0);
  });
});

describe('_bulk item faults: drawn from the seed, 429 per attempt and 400 per document', () => {
  const faults = { seed: 7, itemRejectRate: 0.2, badItemRate: 0.05 };
  const sendAll = async (server: BulkStandIn, all: string[]) => {
    const answers: number[] = [];
    for (let at = 0; at < all.length; at += 50)
      answers.push(...statuses(await sendBulk(server, creates('i', all.slice(at, at + 50)))));
    return answers;
  };

  it('gives the same mix for the same seed, another for another seed', async () => {
    const first = await sendAll(await bulkStandIn(faults), ids(200));
    const again = await sendAll(await bulkStandIn(faults), ids(200));
    const other = await sendAll(await bulkStandIn({ ...faults, seed: 8 }), ids(200));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(first.filter((s) => s === 429).length).toBeGreaterThan(10);
    expect(first.filter((s) => s === 400).length).toBeGreaterThan(0);
  });

  it('lets a rejected item pass when sent again; a bad document stays refused', async () => {
    const server = await bulkStandIn(faults);
    const answer = await sendBulk(server, creates('i', ids(200)));
    const item = (status: number) =>
      answer.json.items.find((one: { create: { status: number } }) => one.create.status === status).create;
    expect(item(429).error.type).toBe('es_rejected_execution_exception');
    expect(item(400).error).toMatchObject({ type: 'document_parsing_exception' });
    expect(item(400).error.reason).toMatch(
      /^\[1:\d+\] failed to parse field \[id\] of type \[long\] in document with id 'id-\d+'/,
    );
    // Send again what was not created until only bad documents are left: a 429 may hide one.
    const outcome = new Map(ids(200).map((id, n) => [id, [statuses(answer)[n]]]));
    let pending = ids(200).filter((id) => outcome.get(id)?.[0] !== 201);
    for (let round = 0; round < 20; round++) {
      const again = statuses(await sendBulk(server, creates('i', pending)));
      for (const [n, id] of pending.entries()) outcome.get(id)?.push(again[n] as number);
      pending = pending.filter((_, n) => again[n] !== 201);
    }
    const bad = [...outcome].filter(([, answers]) => answers.includes(400)).map(([id]) => id);
    expect(bad.length).toBeGreaterThan(0);
    for (const id of bad) expect(outcome.get(id)).not.toContain(201);
    expect(pending.sort()).toEqual(bad.sort());
    expect(server.count('i')).toBe(200 - bad.length);
    expect(server.duplicatesRefused).toBe(0);
    expect(server.itemsRejected).toBeGreaterThan(0);
  });
});

describe('_bulk limits: a body over maxBodyBytes is answered 413 with an empty body', () => {
  it('stores nothing of it', async () => {
    const server = await bulkStandIn({ maxBodyBytes: 1000 });
    const body = creates('i', ids(40));
    expect(Buffer.byteLength(body)).toBeGreaterThan(1000);
    const answer = await sendBulk(server, body);
    expect(answer.status).toBe(413);
    expect(answer.text).toBe('');
    expect(server.count('i')).toBe(0);
    expect(server.bytesReceived).toBe(Buffer.byteLength(body));
    expect((await sendBulk(server, creates('i', ids(2)))).status).toBe(200);
  });
});

describe('_bulk whole-request refusals: 429 es_rejected_execution_exception and 503, with Retry-After', () => {
  it('stores nothing and names the wait', async () => {
    const busy = await bulkStandIn({ wholeRequest429Rate: 1, retryAfterSeconds: 3 });
    const refused = await sendBulk(busy, creates('i', ['1']));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.json).toMatchObject({ error: { type: 'es_rejected_execution_exception' }, status: 429 });
    expect(busy.count('i')).toBe(0);

    const down = await bulkStandIn({ wholeRequest503Rate: 1 });
    const unavailable = await sendBulk(down, creates('i', ['1']));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBeNull();
    expect(unavailable.json).toMatchObject({ error: { type: 'cluster_block_exception' }, status: 503 });
    expect(down.count('i')).toBe(0);
  });
});

describe('_bulk auth: 401 security_exception without the API key or basic credentials', () => {
  it('lets in only the configured credentials', async () => {
    const server = await bulkStandIn({
      auth: { apiKey: 'a2V5OnNlY3JldA==', basic: { username: 'ship', password: 'pw' } },
    });
    const none = await sendBulk(server, creates('i', ['1']));
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({
      error: {
        type: 'security_exception',
        reason: 'missing authentication credentials for REST request [/_bulk]',
      },
      status: 401,
    });
    expect(none.headers.get('www-authenticate')).toContain('ApiKey');
    const wrongKey = await sendBulk(server, creates('i', ['1']), '/_bulk', {
      authorization: 'ApiKey bm9wZQ==',
    });
    expect(wrongKey.status).toBe(401);
    const wrongUser = await sendBulk(server, creates('i', ['1']), '/_bulk', {
      authorization: `Basic ${Buffer.from('ship:nope').toString('base64')}`,
    });
    expect(wrongUser.json.error.reason).toBe('unable to authenticate user [ship] for REST request [/_bulk]');
    expect(server.count('i')).toBe(0);

    const key = await sendBulk(server, creates('i', ['1']), '/_bulk', {
      authorization: 'ApiKey a2V5OnNlY3JldA==',
    });
    const basic = await sendBulk(server, creates('i', ['2']), '/_bulk', {
      authorization: `Basic ${Buffer.from('ship:pw').toString('base64')}`,
    });
    expect([key.status, basic.status]).toEqual([200, 200]);
    expect(server.count('i')).toBe(2);
  });
});

describe('_bulk flavors: GET / and the exception names of Elasticsearch 8 and OpenSearch 2', () => {
  it('answers the cluster info of each', async () => {
    const elastic = (await (await fetch((await bulkStandIn()).url)).json()) as Answer['json'];
    expect(elastic.version).toMatchObject({ number: '8.15.0', build_flavor: 'default' });
    expect(elastic.version.distribution).toBeUndefined();
    const open = (await (
      await fetch((await bulkStandIn({ flavor: 'opensearch' })).url)
    ).json()) as Answer['json'];
    expect(open).toMatchObject({
      cluster_name: 'bulk-standin',
      version: { distribution: 'opensearch', number: '2.17.0' },
    });
  });

  it('names OpenSearch exceptions as OpenSearch does', async () => {
    const server = await bulkStandIn({
      flavor: 'opensearch',
      seed: 7,
      itemRejectRate: 0.2,
      badItemRate: 0.05,
    });
    const answer = await sendBulk(server, creates('i', ids(200)));
    expect(answer.headers.get('x-elastic-product')).toBeNull();
    const types = new Set(
      answer.json.items.map((item: { create: { error?: { type: string } } }) => item.create.error?.type),
    );
    expect(types).toEqual(new Set([undefined, 'rejected_execution_exception', 'mapper_parsing_exception']));
    const auth = await bulkStandIn({
      flavor: 'opensearch',
      auth: { basic: { username: 'u', password: 'p' } },
    });
    const refused = await sendBulk(auth, creates('i', ['1']));
    expect([refused.status, refused.text]).toEqual([401, 'Unauthorized']);
  });
});

describe('_bulk storage: keepSources false keeps ids only', () => {
  it('still refuses a replayed id', async () => {
    const server = await bulkStandIn({ keepSources: false });
    await sendBulk(server, creates('i', ['1', '2']));
    expect(statuses(await sendBulk(server, creates('i', ['2'])))).toEqual([409]);
    expect(server.count('i')).toBe(2);
    expect([...server.docs('i')]).toEqual([
      ['1', undefined],
      ['2', undefined],
    ]);
  });
});

// HEC

const channel = () => randomUUID();
const hecPost = (
  server: HecStandIn,
  body: string,
  headers: Record<string, string> = {},
  path = '/services/collector/event',
) => post(`${server.url}${path}`, body, { authorization: `Splunk ${server.token}`, ...headers });
const events = (...items: unknown[]) => items.map((item) => JSON.stringify(item)).join('\n');
const one = (n: number) => ({ time: 1_700_000_000.25 + n, event: { n }, sourcetype: 'svc:audit' });

describe('HEC token: Authorization: Splunk <token>', () => {
  it('answers 401 code 2 without it, 401 code 3 for another scheme, 403 code 4 for a wrong token', async () => {
    const server = await hecStandIn({ token: 'abc' });
    const url = `${server.url}/services/collector/event`;
    expect((await post(url, events(one(0)))).json).toEqual({ text: 'Token is required', code: 2 });
    const bearer = await post(url, events(one(0)), { authorization: 'Bearer abc' });
    expect([bearer.status, bearer.json]).toEqual([401, { text: 'Invalid authorization', code: 3 }]);
    const wrong = await post(url, events(one(0)), { authorization: 'Splunk nope' });
    expect([wrong.status, wrong.json]).toEqual([403, { text: 'Invalid token', code: 4 }]);
    expect(server.events()).toEqual([]);
    const right = await post(url, events(one(0)), { authorization: 'Splunk abc' });
    expect([right.status, right.json]).toEqual([200, { text: 'Success', code: 0 }]);
    expect(server.events()).toEqual([{ ...one(0), index: 'main' }]);
    expect(server.requests).toBe(4);
  });
});

describe('HEC events: JSON objects one after another, whitespace or nothing between', () => {
  it('stores each in order, on /services/collector too', async () => {
    const server = await hecStandIn({ indexes: ['main', 'audit'] });
    const body = `${JSON.stringify(one(0))}${JSON.stringify({ ...one(1), index: 'audit' })} \n\t ${JSON.stringify({ event: 'text }{ "', host: 'h' })}\n`;
    expect((await hecPost(server, body, {}, '/services/collector')).status).toBe(200);
    expect(server.events()).toEqual([
      { ...one(0), index: 'main' },
      { ...one(1), index: 'audit' },
      { event: 'text }{ "', host: 'h', index: 'main' },
    ]);
  });
});

describe('HEC faulty events: 400 with the number of the first faulty one, nothing stored', () => {
  it('numbers from 0; an incorrect index is reported one higher, as splunkd does', async () => {
    const server = await hecStandIn();
    const missing = await hecPost(server, events(one(0), { time: 1 }));
    expect([missing.status, missing.json]).toEqual([
      400,
      { text: 'Event field is required', code: 12, 'invalid-event-number': 1 },
    ]);
    const broken = await hecPost(server, `${events(one(0), one(1))}\n{"event": `);
    expect(broken.json).toEqual({ text: 'Invalid data format', code: 6, 'invalid-event-number': 2 });
    const blank = await hecPost(server, events({ event: '  ' }));
    expect(blank.json).toEqual({ text: 'Event field cannot be blank', code: 13, 'invalid-event-number': 0 });
    const index = await hecPost(server, events({ ...one(0), index: 'secret' }));
    expect(index.json).toEqual({ text: 'Incorrect index', code: 7, 'invalid-event-number': 1 });
    const empty = await hecPost(server, ' \n');
    expect([empty.status, empty.json]).toEqual([400, { text: 'No data', code: 5 }]);
    expect(server.events()).toEqual([]);
  });
});

describe('HEC busy: 503 code 9, drawn from the seed', () => {
  it('stores nothing of a refused request, the same requests refused for the same seed', async () => {
    const run = async () => {
      const server = await hecStandIn({ busyRate: 0.5, seed: 3 });
      const answers = [];
      for (let n = 0; n < 20; n++) answers.push((await hecPost(server, events(one(n)))).status);
      return { answers, stored: server.events().length };
    };
    const first = await run();
    expect(first.answers).toContain(503);
    expect(first.stored).toBe(first.answers.filter((s) => s === 200).length);
    expect(await run()).toEqual(first);
    const server = await hecStandIn({ busyRate: 1 });
    expect((await hecPost(server, events(one(0)))).json).toEqual({ text: 'Server is busy', code: 9 });
  });
});

describe('HEC limits: a body over maxContentLength is answered 413', () => {
  it('stores nothing of it', async () => {
    const server = await hecStandIn({ maxContentLength: 100 });
    const answer = await hecPost(server, events(one(0), one(1), one(2)));
    expect(answer.status).toBe(413);
    expect(server.events()).toEqual([]);
  });
});

describe('HEC indexer acknowledgement: a channel per request, ackIds per channel from 0', () => {
  const ack = (server: HecStandIn, id: string, acks: number[], query = false) =>
    hecPost(
      server,
      JSON.stringify({ acks }),
      query ? {} : { 'x-splunk-request-channel': id },
      `/services/collector/ack${query ? `?channel=${id}` : ''}`,
    );

  it('refuses a request without a channel (code 10) or with one that is not a GUID (code 11)', async () => {
    const server = await hecStandIn({ ack: true });
    expect((await hecPost(server, events(one(0)))).json).toEqual({
      text: 'Data channel is missing',
      code: 10,
    });
    const bad = await hecPost(server, events(one(0)), { 'x-splunk-request-channel': 'not-a-guid' });
    expect([bad.status, bad.json]).toEqual([400, { text: 'Invalid data channel', code: 11 }]);
  });

  it('indexes a request once a query after the lag answers its ackId true', async () => {
    const server = await hecStandIn({ ack: true });
    const [a, b] = [channel(), channel()];
    const sent = [
      await hecPost(server, events(one(0)), { 'x-splunk-request-channel': a }),
      await hecPost(server, events(one(1), one(2)), {}, `/services/collector/event?channel=${a}`),
      await hecPost(server, events(one(3)), { 'x-splunk-request-channel': b }),
    ];
    expect(sent.map((answer) => answer.json)).toEqual([
      { text: 'Success', code: 0, ackId: 0 },
      { text: 'Success', code: 0, ackId: 1 },
      { text: 'Success', code: 0, ackId: 0 },
    ]);
    expect(server.events()).toEqual([]);
    expect((await ack(server, a, [0, 1, 7])).json).toEqual({ acks: { '0': false, '1': false, '7': false } });
    expect((await ack(server, a, [1], true)).json).toEqual({ acks: { '1': true } });
    expect(server.events().map((event) => event.event)).toEqual([{ n: 1 }, { n: 2 }]);
    expect((await ack(server, a, [0, 1])).json).toEqual({ acks: { '0': true, '1': true } });
    expect((await ack(server, b, [0])).json).toEqual({ acks: { '0': false } });
    expect(server.events()).toHaveLength(3);
  });

  it('keeps a lost ack false for ever and indexes the resend once', async () => {
    const server = await hecStandIn({ ack: true, lostAckRate: 1, ackAfterPolls: 0 });
    const id = channel();
    const first = await hecPost(server, events(one(0)), { 'x-splunk-request-channel': id });
    for (let poll = 0; poll < 5; poll++) expect((await ack(server, id, [0])).json.acks['0']).toBe(false);
    expect(server.events()).toEqual([]);
    const kept = await hecStandIn({ ack: true, ackAfterPolls: 0 });
    await hecPost(kept, events(one(0)), { 'x-splunk-request-channel': id });
    expect((await ack(kept, id, [0])).json).toEqual({ acks: { '0': true } });
    expect(kept.events()).toHaveLength(1);
    expect(first.json.ackId).toBe(0);
  });

  it('answers code 14 to an ack query when acknowledgement is off', async () => {
    const server = await hecStandIn();
    const answer = await ack(server, channel(), [0]);
    expect([answer.status, answer.json]).toEqual([400, { text: 'ACK is disabled', code: 14 }]);
  });
});

describe('TLS: both stand-ins serve https with the test certificate', () => {
  it('answers over https://localhost', async () => {
    const dispatcher = new Agent({ connect: { ca: TEST_TLS.ca } });
    const tls = { key: TEST_TLS.key, cert: TEST_TLS.cert };
    const bulk = await bulkStandIn({ tls });
    expect(bulk.url).toMatch(/^https:\/\/localhost:\d+$/);
    const bulkAnswer = await request(`${bulk.url}/_bulk`, {
      method: 'POST',
      headers: NDJSON,
      body: creates('i', ['1']),
      dispatcher,
    });
    expect(bulkAnswer.statusCode).toBe(200);
    await bulkAnswer.body.dump();
    const hec = await hecStandIn({ tls });
    const hecAnswer = await request(`${hec.url}/services/collector/event`, {
      method: 'POST',
      headers: { authorization: `Splunk ${hec.token}` },
      body: events(one(0)),
      dispatcher,
    });
    expect(await hecAnswer.body.json()).toEqual({ text: 'Success', code: 0 });
    expect([bulk.count('i'), hec.events().length]).toEqual([1, 1]);
    await dispatcher.close();
  });
});
