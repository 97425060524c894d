import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanEventPage as scanBytes } from '../../src/audit/raw-page.js';

/** Scans text as bytes and gives each event back as its text. */
function scanEventPage(text: string) {
  const bytes = Buffer.from(text, 'utf8');
  const scanned = scanBytes(bytes);
  return (
    scanned && {
      envelope: scanned.envelope,
      events: scanned.events.map((e) => ({
        text: bytes.subarray(e.start, e.end).toString('utf8'),
        id: e.id,
      })),
    }
  );
}

const page = (content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    from: 'a',
    to: 'b',
    content,
    page: 0,
    pageSize: 2,
    totalElements: content.length,
    nextCursor: null,
    ...extra,
  });

describe('export writes each event exactly as received', () => {
  it('keeps each event text byte for byte and reads its id', () => {
    const text =
      '{"from":"a","content":[{"id":"e\\u0031","n":1.50,"s":"x,}]\\"y"} , {"nested":{"id":"no"},"id":"e2"}],"totalElements":2,"nextCursor":"c"}';
    const scanned = scanEventPage(text);
    expect(scanned?.events).toEqual([
      { text: '{"id":"e\\u0031","n":1.50,"s":"x,}]\\"y"}', id: 'e1' },
      { text: '{"nested":{"id":"no"},"id":"e2"}', id: 'e2' },
    ]);
    expect(scanned?.envelope).toEqual({ from: 'a', totalElements: 2, nextCursor: 'c' });
  });

  it('finds events in a pretty-printed page (the exporter compacts those events)', () => {
    const text = JSON.stringify({ content: [{ id: 'x', a: [1, 'ü'] }], nextCursor: null }, null, 2);
    const scanned = scanEventPage(text);
    expect(scanned?.events.map((e) => [JSON.parse(e.text), e.id])).toEqual([[{ id: 'x', a: [1, 'ü'] }, 'x']]);
  });

  it('agrees with JSON.parse on any page', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string(), v: fc.jsonValue() }), { maxLength: 8 }), (events) => {
        const scanned = scanEventPage(page(events));
        expect(scanned?.events.map((e) => JSON.parse(e.text))).toEqual(JSON.parse(JSON.stringify(events)));
        expect(scanned?.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('ends strings correctly after escaped backslashes', () => {
    const events = [
      { id: 'a\\', v: '\\"\\' },
      { id: '\\\\', v: ']}' },
    ];
    const scanned = scanEventPage(page(events));
    expect(scanned?.events.map((e) => JSON.parse(e.text))).toEqual(events);
    expect(scanned?.events.map((e) => e.id)).toEqual(['a\\', '\\\\']);
  });

  it('gives up (undefined) on text that is not a page, so the caller parses instead', () => {
    for (const bad of ['', '[]', '{"content":{}}', '{"content":[{"id":"x"}', '{"a":1}', '{"content":[]} x']) {
      expect(scanEventPage(bad), bad).toBeUndefined();
    }
  });
});

describe('the export path keeps each event byte for byte', () => {
  it('writes numbers and escapes exactly as the server sent them, and compacts pretty-printed events', async () => {
    const { SvcClient } = await import('../../src/client.js');
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const body =
      '{"content":[{"id":"b","n":1.50,"s":"\\u00fc"},\n  {\n    "id": "a",\n    "x": 1\n  }],"totalElements":2,"nextCursor":null,"from":"2026-01-01T00:00:00.000Z","to":"2026-01-02T00:00:00.000Z","page":0,"pageSize":1000}';
    const client = new SvcClient({
      baseUrl: 'http://fake.invalid',
      apiKey: 'ak_test',
      transport: { request: async () => ({ status: 200, headers: {}, body }) },
    });
    const out = join(mkdtempSync(join(tmpdir(), 'svc-raw-')), 'out.ndjson');
    await client.audit.exportEvents({
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-02T00:00:00Z',
      output: out,
    });
    expect(readFileSync(out, 'utf8')).toBe('{"id":"b","n":1.50,"s":"\\u00fc"}\n{"id":"a","x":1}\n');
  });
});
