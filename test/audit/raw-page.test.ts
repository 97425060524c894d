import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedResponseError } from '../../src/core/errors/error-classes.js';
import { scanEventPage as scanBytes, scanEventLine } from '../../src/node/audit-export/raw-page.js';
import { exportAuditEvents } from '../../src/node/index.js';

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
        occurredAt: e.occurredAt,
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
      { text: '{"id":"e\\u0031","n":1.50,"s":"x,}]\\"y"}', id: 'e1', occurredAt: undefined },
      { text: '{"nested":{"id":"no"},"id":"e2"}', id: 'e2', occurredAt: undefined },
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

  it('gives up (undefined) on valid JSON that is not a page, so the caller parses instead', () => {
    for (const other of ['[]', '{}', '{"content":{}}', '{"a":1}', '"x"', '{"content":[],"content":1}']) {
      expect(scanEventPage(other), other).toBeUndefined();
    }
  });
});

describe("each event's id and occurredAt are read as JSON.parse reads them: top-level strings, the last of a repeated key", () => {
  /** The members JSON.parse finds, when they are strings. */
  const keysOf = (text: string) => {
    const value = JSON.parse(text) as { id?: unknown; occurredAt?: unknown } | null;
    const string = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { id: string(value.id), occurredAt: string(value.occurredAt) }
      : { id: undefined, occurredAt: undefined };
  };
  const key = fc.constantFrom(
    '"id"',
    '"occurredAt"',
    '"\\u0069d"',
    '"occurred\\u0041t"',
    '"x"',
    '"ID"',
    '"occurredAtX"',
  );
  const value = fc.oneof(
    fc.string().map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );
  const member = fc.tuple(key, value).map(([k, v]) => `${k}:${v}`);
  const event = fc.oneof(
    { weight: 5, arbitrary: fc.array(member, { maxLength: 6 }).map((members) => `{${members.join(',')}}`) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  );

  it('in a page and in a line of the export, repeated, escaped and nested keys included', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 6 }), (events) => {
        const text = `{"content":[${events.join(',')}],"nextCursor":null}`;
        const scanned = scanEventPage(text);
        expect(scanned?.events.map(({ id, occurredAt }) => ({ id, occurredAt }))).toEqual(events.map(keysOf));
        for (const line of events) expect(scanEventLine(Buffer.from(line))).toEqual(keysOf(line));
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it('a line that is not one JSON value is undefined', () => {
    for (const bad of ['', '{', '{"id":"a"} x', '{"id":"a"}{}', 'nul'])
      expect(scanEventLine(Buffer.from(bad))).toBeUndefined();
  });
});

describe('every event the scanner hands on is valid JSON (strict grammar, UTF-8)', () => {
  const invalidEvents = [
    '{"id":"e1" "x":1}',
    '{"x":NaN}',
    '{"x":Infinity}',
    '{"x":01}',
    '{"x":1.}',
    '{"x":.5}',
    '{"x":1e}',
    '{"x":+1}',
    '{"x":-}',
    '{"x":tru}',
    '{"x":True}',
    '{"x":undefined}',
    "{'x':1}",
    '{x:1}',
    '{"x":1,}',
    '{"x":[1,]}',
    '{"x":[1 2]}',
    '{"x"1}',
    '{"x"::1}',
    '{,"x":1}',
    '{"x":"a\\qb"}',
    '{"x":"\\u12G4"}',
    '{"x":"tab\there"}',
    '{"x":"line\nbreak"}',
    '{"x":1}}',
    '{"x":[1}',
    '{"x":{"y":1]}',
    '{"x":1',
  ];

  it.each(invalidEvents)('refuses the page holding %s with MalformedResponseError', (event) => {
    const text = `{"content":[{"id":"ok","v":1},${event}],"totalElements":2,"nextCursor":null}`;
    const run = () => scanEventPage(text);
    expect(run).toThrow(MalformedResponseError);
    expect(run).toThrow(
      /^Audit page is not valid JSON: unexpected (byte 0x[0-9a-f]{2}|end) at offset \d+ \(after \d+ events\); nothing of this page was written$/,
    );
  });

  it('refuses invalid JSON around the events too', () => {
    for (const bad of [
      '',
      '{"content":[{"id":"x"}',
      '{"content":[]} x',
      '{"a":1,}',
      '{"a":NaN,"content":[]}',
    ]) {
      expect(() => scanEventPage(bad), bad).toThrow(MalformedResponseError);
    }
  });

  it('refuses bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"content":[{"id":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}]}'),
    ]);
    expect(() => scanBytes(bytes)).toThrow(/not valid UTF-8/);
  });

  it('accepts every valid JSON event exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), (values) => {
        const text = page(
          values.map((v) => ({ id: 'x', v })),
          {},
        );
        const scanned = scanEventPage(text);
        expect(scanned?.events.map((e) => JSON.parse(e.text))).toEqual(JSON.parse(text).content);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('agrees with JSON.parse on whether a mutated page is valid', () => {
    const base =
      '{"content":[{"id":"a","n":-1.5e+3,"s":"\\u00fcx\\n","l":[true,false,null,{}]}],"nextCursor":null}';
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.constantFrom(...' ,:{}[]"\\01eE.-+tnx'), (at, ch) => {
        const text = base.slice(0, at) + ch + base.slice(at + 1);
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (valid) expect(() => scanEventPage(text)).not.toThrow();
        else expect(() => scanEventPage(text)).toThrow(MalformedResponseError);
      }),
      { numRuns: 2000, seed: 3 },
    );
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
    await exportAuditEvents(client.audit, {
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-02T00:00:00Z',
      output: out,
    });
    expect(readFileSync(out, 'utf8')).toBe('{"id":"b","n":1.50,"s":"\\u00fc"}\n{"id":"a","x":1}\n');
  });
});
