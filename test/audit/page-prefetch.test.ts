import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { cursorAtTail } from '../../src/node/audit-export/cursor-at-tail.js';
import { EarlyPageFetcher, type PageQuery } from '../../src/node/audit-export/page-prefetch.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { useLocalServers } from '../core/local-servers.js';

const FROM = '2026-01-01T00:00:00.000Z';
const TO = '2026-01-02T00:00:00.000Z';
const bytes = (text: string) => Buffer.from(text);
const query = (cursor: string | undefined): PageQuery => ({ from: FROM, to: TO, pageSize: 1000, cursor });

describe('the next cursor is guessed from the last bytes of a page', () => {
  it.each([
    ['{"content":[],"nextCursor":"abc"}', 'abc'],
    ['{"content":[], "nextCursor" : "a.b-c_d" }\n', 'a.b-c_d'],
    ['{"content":[],"nextCursor":null}', null],
    ['{"content":[],"nextCursor": null }  ', null],
  ])('%s gives %s', (page, guess) => {
    expect(cursorAtTail(bytes(page))).toBe(guess);
  });

  it.each([
    ['another member last', '{"nextCursor":"abc","content":[]}'],
    ['an escape in the value', '{"content":[],"nextCursor":"a\\"b"}'],
    ['a control character in the value', '{"content":[],"nextCursor":"a\tb"}'],
    ['not an object', '"nextCursor":"abc"'],
    ['a number', '{"content":[],"nextCursor":5}'],
    ['another key', '{"content":[],"previousCursor":"abc"}'],
    ['too short', '}'],
    ['empty', ''],
  ])('no guess for %s', (_what, page) => {
    expect(cursorAtTail(bytes(page))).toBeUndefined();
  });
});

/** A fetcher over fixed pages by cursor, recording each request: cursor, slot, and whether it was aborted. */
function fakePages(pages: Record<string, string>) {
  const requests: Array<{ cursor: string | undefined; slot: number; aborted: () => boolean }> = [];
  const fetcher = new EarlyPageFetcher(async (q, signal, slot) => {
    requests.push({ cursor: q.cursor, slot, aborted: () => signal.aborted });
    const page = pages[q.cursor ?? ''];
    if (page === undefined) throw new Error(`no page ${q.cursor}`);
    return bytes(page);
  });
  return { fetcher, requests };
}

describe('the next page is asked for before the current one is scanned', () => {
  const pages = {
    '': '{"content":[1],"nextCursor":"c1"}',
    c1: '{"content":[2],"nextCursor":"c2"}',
    c2: '{"content":[3],"nextCursor":"c3"}',
    c3: '{"content":[4],"nextCursor":null}',
  };

  it('each page is requested once, early, in three buffer slots used in turn', async () => {
    const { fetcher, requests } = fakePages(pages);
    for (const cursor of [undefined, 'c1', 'c2', 'c3']) {
      const page = await fetcher.bytes(query(cursor), undefined);
      expect(page.toString()).toBe(pages[(cursor ?? '') as keyof typeof pages]);
    }
    expect(requests.map((r) => [r.cursor, r.slot])).toEqual([
      [undefined, 0],
      ['c1', 1],
      ['c2', 2],
      ['c3', 0],
    ]);
    expect(requests.some((r) => r.aborted())).toBe(false);
  });

  it('a wrong guess is aborted, never used, and its buffer slot serves the right page', async () => {
    // The tail says c9, the page (after its scan) says c1.
    const { fetcher, requests } = fakePages({ ...pages, '': '{"content":[1],"nextCursor":"c9"}', c9: '{}' });
    await fetcher.bytes(query(undefined), undefined);
    const second = await fetcher.bytes(query('c1'), undefined);
    expect(second.toString()).toBe(pages.c1);
    expect(requests.map((r) => [r.cursor, r.slot])).toEqual([
      [undefined, 0],
      ['c9', 1],
      ['c1', 1],
      ['c2', 2],
    ]);
    expect(requests[1]?.aborted()).toBe(true);
    expect(requests[2]?.aborted()).toBe(false);
  });

  it('close() aborts a guess nobody asked for; its failure is never unhandled', async () => {
    const { fetcher, requests } = fakePages({ '': '{"content":[],"nextCursor":"missing"}' });
    await fetcher.bytes(query(undefined), undefined);
    fetcher.close();
    expect(requests.map((r) => r.cursor)).toEqual([undefined, 'missing']);
    expect(requests[1]?.aborted()).toBe(true);
  });

  it("the caller's abort reaches a request started early", async () => {
    const { fetcher, requests } = fakePages(pages);
    const controller = new AbortController();
    await fetcher.bytes(query(undefined), controller.signal);
    controller.abort();
    expect(requests[1]?.aborted()).toBe(true);
  });
});

describe('an export follows the cursor its scan finds, whatever the tail suggests', () => {
  const { serve, keep } = useLocalServers();
  const event = (id: string) => `{"id":"${id}","occurredAt":"2026-01-01T12:00:00.000Z"}`;
  // The top-level nextCursor comes first; the page ends with a nested decoy that looks like one.
  const decoyed = (content: string, next: string | null) =>
    `{"nextCursor":${next === null ? 'null' : `"${next}"`},"from":"${FROM}","to":"${TO}","page":0,"pageSize":1000,"content":[${content}],"totalElements":3,"extra":{"nextCursor":"decoy"}}`;

  it('writes every real page once and nothing of the decoy', async () => {
    const server = await serve((req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      res.writeHead(200, { 'content-type': 'application/json' });
      if (cursor === null) res.end(decoyed(`${event('a')},${event('b')}`, 'real'));
      else if (cursor === 'real') res.end(decoyed(event('c'), null));
      else res.end(decoyed(event('decoy-event'), null));
    });
    const client = keep(new SvcClient({ baseUrl: server.url, auditApiKey: 'ak_prefetch_0123456789' }));
    const out = join(mkdtempSync(join(tmpdir(), 'svc-prefetch-')), 'out.ndjson');
    const result = await exportAuditEvents(client.audit, { from: FROM, to: TO, output: out });
    expect(readFileSync(out, 'utf8')).toBe(`${event('a')}\n${event('b')}\n${event('c')}\n`);
    expect(result).toMatchObject({ events: 3, countMatches: true, duplicatesDropped: 0 });
    const cursors = server.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));
    expect(cursors.filter((c) => c === 'real')).toHaveLength(1);
    expect(cursors.filter((c) => c === 'decoy').length).toBeLessThanOrEqual(2);
  });
});
