import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanEventPage } from '../../src/audit/raw-page.js';

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

  it('compacts a pretty-printed event so NDJSON stays one event per line', () => {
    const scanned = scanEventPage(
      JSON.stringify({ content: [{ id: 'x', a: [1, 2] }], nextCursor: null }, null, 2),
    );
    expect(scanned?.events).toEqual([{ text: '{"id":"x","a":[1,2]}', id: 'x' }]);
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

  it('gives up (undefined) on text that is not a page, so the caller parses instead', () => {
    for (const bad of ['', '[]', '{"content":{}}', '{"content":[{"id":"x"}', '{"a":1}', '{"content":[]} x']) {
      expect(scanEventPage(bad), bad).toBeUndefined();
    }
  });
});
