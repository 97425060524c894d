import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followCursors } from '../../src/audit/paginate.js';
import { SvcClient } from '../../src/client.js';
import { MalformedResponseError, PagingError } from '../../src/core/errors/error-classes.js';
import type { TransportRequest, TransportResponse } from '../../src/core/transport/types.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { type LocalServer, useLocalServers } from '../core/local-servers.js';
import { failure } from '../helpers/client.js';

const KEY = 'ak_audit_hostile_0123456789';
const FROM = '2026-01-01T00:00:00.000Z';
const TO = '2026-01-02T00:00:00.000Z';

const { serve, keep } = useLocalServers();

/** The page envelope around `content` (raw JSON text of the events). */
const envelope = (content: string, totalElements: number, nextCursor: string | null) =>
  `{"from":"${FROM}","to":"${TO}","content":[${content}],"page":0,"pageSize":1000,"totalElements":${totalElements},"nextCursor":${nextCursor === null ? 'null' : `"${nextCursor}"`}}`;

const event = (id: string) =>
  `{"id":"${id}","schemaVersion":2,"occurredAt":"2026-01-01T12:00:00.000Z","type":"t","actor":{"type":"SYSTEM"}}`;

/** An audit log answering page `n` (0 for no cursor, n for cursor `c<n>`) with `pageOf(n)`. */
async function auditServer(pageOf: (n: number) => string): Promise<LocalServer> {
  return serve((req, res) => {
    const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
    const n = cursor === null ? 0 : Number(cursor.slice(1));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(pageOf(n));
  });
}

function clientOf(server: LocalServer, transport?: SvcClient['http']['settings']['transport']): SvcClient {
  return keep(new SvcClient({ baseUrl: server.url, auditApiKey: KEY, ...(transport && { transport }) }));
}

async function collect(iterable: AsyncIterable<{ id: string }>, into: string[]): Promise<void> {
  for await (const item of iterable) into.push(item.id);
}

function scratch(): { out: string; state: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hostile-pages-'));
  return { out: join(dir, 'out.ndjson'), state: join(dir, 'state.json') };
}

describe('paging stops after 3 empty pages in a row that still carry a cursor', () => {
  const emptyForever = (n: number) => envelope('', 0, `c${n + 1}`);

  it('events() throws PagingError after three requests', async () => {
    const server = await auditServer(emptyForever);
    const seen: string[] = [];
    const error = await failure(collect(clientOf(server).audit.events({ from: FROM, to: TO }), seen));
    expect(error).toBeInstanceOf(PagingError);
    expect((error as PagingError).code).toBe('endless_paging');
    expect(error.message).toBe(
      'The audit log returned 3 empty pages in a row that still point to a next page (page 3); stopped',
    );
    expect(server.seen).toHaveLength(3);
  });

  it('an export stops the same way, state resumable at the last page it took', async () => {
    const server = await auditServer(emptyForever);
    const { out, state } = scratch();
    const error = await failure(
      exportAuditEvents(clientOf(server).audit, { from: FROM, to: TO, output: out, statePath: state }),
    );
    expect(error).toBeInstanceOf(PagingError);
    expect(server.seen.length).toBeLessThanOrEqual(4);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({
      cursor: 'c2',
      complete: false,
      events: 0,
    });
  });

  it('a few empty pages with a cursor are still followed', async () => {
    const server = await auditServer((n) =>
      n < 2 ? envelope('', 1, `c${n + 1}`) : envelope(event('only'), 1, null),
    );
    const seen: string[] = [];
    await collect(clientOf(server).audit.events({ from: FROM, to: TO }), seen);
    expect(seen).toEqual(['only']);
  });
});

describe('paging stops when the server returns more events than its totalElements', () => {
  // Two fresh events per page, forever, while the server claims 3 in the range.
  const inflating = (n: number) =>
    envelope(`${event(`e${2 * n}`)},${event(`e${2 * n + 1}`)}`, 3, `c${n + 1}`);

  it('events() yields the first page, then throws before handing on the second', async () => {
    const server = await auditServer(inflating);
    const seen: string[] = [];
    const error = await failure(collect(clientOf(server).audit.events({ from: FROM, to: TO }), seen));
    expect(error).toBeInstanceOf(PagingError);
    expect(error.message).toBe(
      'The audit log returned more events (4) than its totalElements (3) by page 2; stopped',
    );
    expect(seen).toEqual(['e0', 'e1']);
  });

  it('an export writes only the pages within the count', async () => {
    const server = await auditServer(inflating);
    const { out, state } = scratch();
    const error = await failure(
      exportAuditEvents(clientOf(server).audit, { from: FROM, to: TO, output: out, statePath: state }),
    );
    expect((error as PagingError).code).toBe('count_exceeded');
    expect(readFileSync(out, 'utf8')).toBe(`${event('e0')}\n${event('e1')}\n`);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ cursor: 'c1', events: 2 });
  });

  it('a resumed run counts the events read before it (countedBefore)', async () => {
    const pages = [{ content: [{ id: 'x' }, { id: 'y' }], totalElements: 3, nextCursor: null }];
    const read = async (guards: { countedBefore?: number }) => {
      const ids: string[] = [];
      for await (const page of followCursors(async () => pages[0] as (typeof pages)[0], 'c5', false, guards))
        ids.push(...page.content.map((e) => e.id));
      return ids;
    };
    expect(await read({ countedBefore: 1 })).toEqual(['x', 'y']);
    await expect(read({ countedBefore: 2 })).rejects.toThrow(
      /more events \(4\) than its totalElements \(3\)/,
    );
  });

  it('an event repeated across a page boundary is not counted twice', async () => {
    const server = await auditServer((n) =>
      n === 0
        ? envelope(`${event('a')},${event('b')}`, 3, 'c1')
        : envelope(`${event('b')},${event('c')}`, 3, null),
    );
    const seen: string[] = [];
    await collect(clientOf(server).audit.events({ from: FROM, to: TO }), seen);
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});

describe('an export never writes an invalid event: the page fails, state stays at the last good page', () => {
  it.each(['{"id":"e3" "x":1}', '{"id":"e3","x":NaN}', '{"id":"e3","x":"raw\ttab"}', '{"id":"e3","x":01}'])(
    'a page holding %s fails with MalformedResponseError',
    async (bad) => {
      const server = await auditServer((n) =>
        n === 0
          ? envelope(`${event('e1')},${event('e2')}`, 4, 'c1')
          : envelope(`${event('e4')},${bad}`, 4, null),
      );
      const { out, state } = scratch();
      const error = await failure(
        exportAuditEvents(clientOf(server).audit, { from: FROM, to: TO, output: out, statePath: state }),
      );
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect(error.message).toMatch(
        /^Audit page is not valid JSON: unexpected (byte 0x[0-9a-f]{2}|end) at offset \d+/,
      );
      expect(error.message.split('\n')).toHaveLength(1);
      expect(readFileSync(out, 'utf8')).toBe(`${event('e1')}\n${event('e2')}\n`);
      expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({
        cursor: 'c1',
        events: 2,
        complete: false,
      });
    },
  );
});

describe('audit pages travel as bytes from the transport to the export', () => {
  it('the export asks the transport for bytes and gets them without a text copy', async () => {
    const server = await auditServer((n) =>
      n === 0 ? envelope(`${event('e1')},${event('ü2')}`, 3, 'c1') : envelope(event('e3'), 3, null),
    );
    const inner = createUndiciTransport();
    const answers: Array<{ type: TransportRequest['responseType']; response: TransportResponse }> = [];
    const made = clientOf(server, {
      request: async (req) => {
        const response = await inner.request(req);
        answers.push({ type: req.responseType, response });
        return response;
      },
      close: () => inner.close?.() ?? Promise.resolve(),
    });
    const { out } = scratch();
    const result = await exportAuditEvents(made.audit, { from: FROM, to: TO, output: out });
    expect(result.events).toBe(3);
    expect(answers.map((a) => a.type)).toEqual(['bytes', 'bytes']);
    for (const { response } of answers) {
      expect(response.bytes).toBeInstanceOf(Uint8Array);
      expect(response.body).toBe('');
    }
    expect(readFileSync(out, 'utf8')).toBe(`${event('e1')}\n${event('ü2')}\n${event('e3')}\n`);
  });
});

describe('each line is one event as received, however the page separates its events', () => {
  it('compact pages, spaces around commas, a duplicate inside a page and a pretty-printed event', async () => {
    const pretty = '{\n  "id": "p4",\n  "type": "t"\n}';
    const pages = [
      envelope(`${event('e1')},${event('e2')}`, 7, 'c1'),
      envelope(` ${event('e3')} , ${event('e3')} `, 7, 'c2'),
      envelope(`${event('e5')},${pretty},${event('e6')}`, 7, 'c3'),
      envelope(event('e7'), 7, null),
    ];
    const server = await auditServer((n) => pages[n] as string);
    const { out } = scratch();
    const result = await exportAuditEvents(clientOf(server).audit, { from: FROM, to: TO, output: out });
    expect(result.duplicatesDropped).toBe(1);
    const compact = JSON.stringify(JSON.parse(pretty));
    const expected = [event('e1'), event('e2'), event('e3'), event('e5'), compact, event('e6'), event('e7')];
    expect(readFileSync(out, 'utf8')).toBe(`${expected.join('\n')}\n`);
  });
});
